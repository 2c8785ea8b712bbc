package format

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"warren/internal/fixtures"
)

// fixtureDir returns the folder of RabbitMQ 3.10.8's files; every check
// here rests on it.
func fixtureDir(t testing.TB) string {
	t.Helper()
	return fixtures.RabbitMQ(t)
}

// caseMessage is one row of a CASE.md "Messages in publish order" table.
type caseMessage struct {
	Index        int
	Prefix       string // the body's distinctive start, as CASE.md quotes it
	Body         []byte
	DeliveryMode int
	Priority     int // -1 when absent
	Exchange     string
	RoutingKey   string
	ID           string // "" when not on disk
}

// caseFile is one row of a snapshot's file table.
type caseFile struct {
	Path   string // relative to the snapshot folder
	Size   int64
	SHA256 string
}

// caseSnapshot is one "## Snapshot X" section.
type caseSnapshot struct {
	Name  string
	Files []caseFile
	// Decoded maps a file path to the indented lines CASE.md shows for it.
	Decoded map[string][]string
}

// fixtureCase is one parsed CASE.md.
type fixtureCase struct {
	Name      string
	Dir       string
	Messages  []caseMessage
	Snapshots []*caseSnapshot
}

var (
	bodyRe     = regexp.MustCompile("^`([^`]*)`(?: \\+ ([0-9]+) × `(.)`)?$")
	fileRowRe  = regexp.MustCompile("^\\| `([A-Z0-9]+)/([^`]+)` \\| ([0-9]+) \\| `([0-9a-f]{64})` \\|$")
	snapshotRe = regexp.MustCompile(`^## Snapshot ([A-Z0-9]+):`)
	fileHeadRe = regexp.MustCompile(`^(\S+) \(([0-9]+) bytes\)$`)
)

// loadCases parses every CASE.md under the fixture root.
func loadCases(t testing.TB) []*fixtureCase {
	t.Helper()
	root := fixtureDir(t)
	paths, err := filepath.Glob(filepath.Join(root, "*", "CASE.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no CASE.md under %s: %v", root, err)
	}
	sort.Strings(paths)
	var cases []*fixtureCase
	for _, p := range paths {
		c, err := parseCase(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		cases = append(cases, c)
	}
	return cases
}

func parseCase(path string) (*fixtureCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &fixtureCase{Name: filepath.Base(filepath.Dir(path)), Dir: filepath.Dir(path)}
	var section string
	var snap *caseSnapshot
	var inText bool
	var current string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inText = strings.HasPrefix(line, "```text") && snap != nil
			current = ""
			continue
		}
		if inText {
			if m := fileHeadRe.FindStringSubmatch(line); m != nil {
				current = m[1]
				snap.Decoded[current] = nil
				continue
			}
			if strings.HasPrefix(line, "  ") && current != "" {
				snap.Decoded[current] = append(snap.Decoded[current], line)
			}
			continue
		}
		if strings.HasPrefix(line, "## ") {
			section = line
			snap = nil
			if m := snapshotRe.FindStringSubmatch(line); m != nil {
				snap = &caseSnapshot{Name: m[1], Decoded: map[string][]string{}}
				c.Snapshots = append(c.Snapshots, snap)
			}
			continue
		}
		if section == "## Messages in publish order" && strings.HasPrefix(line, "| ") && !strings.HasPrefix(line, "| #") && !strings.HasPrefix(line, "| ---") {
			m, err := parseMessageRow(line)
			if err != nil {
				return nil, err
			}
			c.Messages = append(c.Messages, m)
		}
		if snap != nil {
			if m := fileRowRe.FindStringSubmatch(line); m != nil && m[1] == snap.Name {
				size, _ := strconv.ParseInt(m[3], 10, 64)
				snap.Files = append(snap.Files, caseFile{Path: m[2], Size: size, SHA256: m[4]})
			}
		}
	}
	return c, sc.Err()
}

func parseMessageRow(line string) (caseMessage, error) {
	cells := strings.Split(strings.Trim(line, "|"), " | ")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	var m caseMessage
	if len(cells) != 9 {
		return m, fmt.Errorf("message row has %d cells: %q", len(cells), line)
	}
	var err error
	if m.Index, err = strconv.Atoi(cells[0]); err != nil {
		return m, err
	}
	b := bodyRe.FindStringSubmatch(cells[1])
	if b == nil {
		return m, fmt.Errorf("body cell %q", cells[1])
	}
	m.Prefix = b[1]
	m.Body = []byte(b[1])
	if b[2] != "" {
		n, _ := strconv.Atoi(b[2])
		m.Body = append(m.Body, bytes.Repeat([]byte(b[3]), n)...)
	}
	if size, _ := strconv.Atoi(cells[2]); size != len(m.Body) {
		return m, fmt.Errorf("body of message %d is %d bytes, table says %s", m.Index, len(m.Body), cells[2])
	}
	m.DeliveryMode, _ = strconv.Atoi(cells[3])
	m.Priority = -1
	if cells[4] != "absent" {
		m.Priority, _ = strconv.Atoi(cells[4])
	}
	if cells[5] != "(default)" {
		m.Exchange = strings.Trim(cells[5], "`")
	}
	m.RoutingKey = strings.Trim(cells[6], "`")
	if id := strings.Trim(cells[8], "`"); len(id) == 32 {
		m.ID = id
	}
	return m, nil
}
