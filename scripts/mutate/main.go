// Command mutate breaks warren's storage code one way at a time and shows
// which test catches each break: every mutation of
// engine/store/testdata/mutations must make a test fail. Each file there
// says why the change breaks durability, the file it changes, the tests
// to run and the lines to replace:
//
//	# why
//	file: engine/store/msg_store.go
//	test: TestCrashRecovery
//	- 	if s.curDirty && s.p.fsyncBeforeConfirm() {
//	+ 	if false && s.curDirty && s.p.fsyncBeforeConfirm() {
//
// The "-" lines must occur exactly once in the file; the "+" lines take
// their place. The source is not touched: go test reads the changed file
// through -overlay. Run it from the module's root:
//
//	go run ./scripts/mutate [-short] [NAME ...]
//
// It prints one line a mutation, "caught by TESTS" or "MISSED", and exits
// 1 when one was missed or could not be applied.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// dir holds the mutations, one a file.
const dir = "engine/store/testdata/mutations"

// mutation is one break of the code.
type mutation struct {
	name, why, file string
	tests           []string
	old, new        string
}

func main() {
	short := flag.Bool("short", false, "run the tests with -short")
	flag.Parse()
	ms, err := load(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	tmp, err := os.MkdirTemp("", "warren-mutate-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutate:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(tmp)
	missed := 0
	for _, m := range ms {
		caught, err := run(m, tmp, *short)
		switch {
		case err != nil:
			missed++
			fmt.Printf("%-40s cannot apply: %v\n", m.name, err)
		case len(caught) == 0:
			missed++
			fmt.Printf("%-40s MISSED by %s\n", m.name, strings.Join(m.tests, ", "))
		default:
			fmt.Printf("%-40s caught by %s\n", m.name, strings.Join(caught, ", "))
		}
	}
	if missed > 0 {
		fmt.Printf("%d of %d mutations missed\n", missed, len(ms))
		os.Exit(1)
	}
	fmt.Printf("all %d mutations caught\n", len(ms))
}

// load reads the mutations named (all when none are).
func load(names []string) ([]mutation, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, err
	}
	var out []mutation
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".txt")
		if len(names) > 0 && !slices.Contains(names, name) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		m, err := parse(name, string(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no mutation in %s matches %q", dir, names)
	}
	return out, nil
}

// parse reads one mutation file.
func parse(name, text string) (mutation, error) {
	m := mutation{name: name}
	var old, new []string
	for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			m.why += strings.TrimPrefix(l, "# ") + " "
		case strings.HasPrefix(l, "file: "):
			m.file = strings.TrimPrefix(l, "file: ")
		case strings.HasPrefix(l, "test: "):
			m.tests = strings.Fields(strings.TrimPrefix(l, "test: "))
		case strings.HasPrefix(l, "- "):
			old = append(old, strings.TrimPrefix(l, "- "))
		case strings.HasPrefix(l, "+ "):
			new = append(new, strings.TrimPrefix(l, "+ "))
		case l == "-" || l == "+":
			if l == "-" {
				old = append(old, "")
			} else {
				new = append(new, "")
			}
		case strings.TrimSpace(l) == "":
		default:
			return m, fmt.Errorf("line %d: %q is none of # why, file:, test:, - old, + new", i+1, l)
		}
	}
	if m.file == "" || len(m.tests) == 0 || len(old) == 0 {
		return m, fmt.Errorf("a mutation needs file:, test: and - lines")
	}
	m.old, m.new = strings.Join(old, "\n")+"\n", strings.Join(new, "\n")+"\n"
	if len(new) == 0 {
		m.new = ""
	}
	return m, nil
}

// run applies m through an overlay and runs its tests; it returns the
// tests that failed.
func run(m mutation, tmp string, short bool) ([]string, error) {
	src, err := os.ReadFile(m.file)
	if err != nil {
		return nil, err
	}
	if n := bytes.Count(src, []byte(m.old)); n != 1 {
		return nil, fmt.Errorf("the lines to replace occur %d times in %s", n, m.file)
	}
	changed := filepath.Join(tmp, m.name+".go")
	if err := os.WriteFile(changed, bytes.Replace(src, []byte(m.old), []byte(m.new), 1), 0o644); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(m.file)
	if err != nil {
		return nil, err
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: changed}})
	ov := filepath.Join(tmp, m.name+".json")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		return nil, err
	}
	args := []string{"test", "-overlay", ov, "-count=1", "-run", "^(" + strings.Join(m.tests, "|") + ")$"}
	if short {
		args = append(args, "-short")
	}
	args = append(args, "./"+filepath.Dir(m.file))
	out, err := exec.Command("go", args...).CombinedOutput()
	if err == nil {
		return nil, nil
	}
	if bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")) {
		return nil, fmt.Errorf("the mutated code does not build:\n%s", out)
	}
	var caught []string
	for _, f := range failRE.FindAllSubmatch(out, -1) {
		if t := string(f[1]); !slices.Contains(caught, t) {
			caught = append(caught, t)
		}
	}
	if len(caught) == 0 {
		return []string{"(go test failed: " + firstLine(out) + ")"}, nil
	}
	return caught, nil
}

var failRE = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)

func firstLine(b []byte) string {
	l, _, _ := strings.Cut(string(b), "\n")
	return l
}
