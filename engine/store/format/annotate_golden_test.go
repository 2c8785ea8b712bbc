//go:build !js

package format

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var rewrite = flag.Bool("rewrite", false, "rewrite the golden files in testdata/")

// describeAnnotation is an annotation in English, a line an entry and a
// line a field, as a golden file holds it.
func describeAnnotation(t *testing.T, name string, a *Annotation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: %s, %d bytes, %d entries", name, a.Kind, a.Size, a.Total)
	if a.Stop.Key != "" {
		fmt.Fprintf(&b, ", stopped: %s", inEnglish(t, a.Stop))
	}
	b.WriteByte('\n')
	entry := -2
	for _, s := range a.Spans {
		if s.Entry != entry {
			entry = s.Entry
			if entry >= 0 {
				e := a.Entries[entry]
				fmt.Fprintf(&b, "%s: %s [%d+%d] seq %d", inEnglish(t, e.Label), e.State, e.Off, e.Len, e.Seq)
				if e.MsgID != "" {
					fmt.Fprintf(&b, " msg %s", e.MsgID)
				}
				if e.QSOffset >= 0 {
					fmt.Fprintf(&b, " qs %d", e.QSOffset)
				}
				b.WriteByte('\n')
			}
		}
		fmt.Fprintf(&b, "  %d+%d %s (%s): %s\n", s.Off, s.Len, inEnglish(t, say(s.Name)), s.Role, inEnglish(t, s.Value))
	}
	return b.String()
}

// fixtureFiles calls fn with every file of the fixtures that has a layout,
// by its path under the fixtures, in order.
func fixtureFiles(t *testing.T, fn func(name string, data []byte)) {
	t.Helper()
	for _, c := range loadCases(t) {
		for _, sn := range c.Snapshots {
			if len(sn.Files) == 0 {
				continue
			}
			dir := filepath.Join(c.Dir, sn.Name)
			snap := readSnapshot(t, dir)
			for _, p := range snap.paths() {
				if Kind(p) != "" {
					fn(c.Name+"/"+sn.Name+"/"+p, snap[p])
				}
			}
		}
	}
}

// TestAnnotateGolden: every file of the fixtures, field by field in
// English, as testdata/annotate/CASE.txt holds it (go test -rewrite
// writes them; read the diff).
func TestAnnotateGolden(t *testing.T) {
	got := map[string]*strings.Builder{}
	fixtureFiles(t, func(name string, data []byte) {
		c := name[:strings.IndexByte(name, '/')]
		if got[c] == nil {
			got[c] = &strings.Builder{}
		}
		got[c].WriteString(describeAnnotation(t, name, Annotate(name, data, LegacyV1SegmentEntryCount)))
	})
	if len(got) == 0 {
		t.Fatal("no fixture file was annotated")
	}
	for c, b := range got {
		path := filepath.Join("testdata", "annotate", c+".txt")
		if *rewrite {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -rewrite writes it)", err)
		}
		if got, want := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n"); len(got) != len(want) {
			t.Errorf("%s: %d lines, the golden file has %d (go test -rewrite, then read the diff)", path, len(got), len(want))
		} else {
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%s:%d:\n got %s\nwant %s", path, i+1, got[i], want[i])
					break
				}
			}
		}
	}
}

// damaged are the variants of data a test reads: cut at many lengths, and
// with single bytes changed.
func damaged(data []byte) [][]byte {
	var out [][]byte
	for _, n := range []int{1, 3, 7, 8, 20, 63, 64, 65, 70, 100, len(data) / 2, len(data) - 5, len(data) - 1} {
		if n > 0 && n < len(data) {
			out = append(out, data[:n])
		}
	}
	for _, at := range []int{0, 4, 8, 30, 64, 68, len(data) / 3, len(data) - 1} {
		if at >= 0 && at < len(data) {
			b := append([]byte(nil), data...)
			b[at] ^= 0x5a
			out = append(out, b)
		}
	}
	return out
}

// TestAnnotateDamagedFixtures: every fixture file, cut short or with a byte
// changed, is still named byte for byte: the spans lie in order, each
// inside its entry, and cover the file; where they stop short of the end,
// an unreadable span says why.
func TestAnnotateDamagedFixtures(t *testing.T) {
	stops := map[string]bool{}
	fixtureFiles(t, func(name string, data []byte) {
		for _, d := range damaged(data) {
			a := Annotate(name, d, LegacyV1SegmentEntryCount)
			at := int64(0)
			for _, s := range a.Spans {
				if s.Off != at || s.Len <= 0 || string(s.Bytes) != string(d[s.Off:s.Off+s.Len]) {
					t.Fatalf("%s (%d bytes): span %s [%d+%d] after %d", name, len(d), s.Name, s.Off, s.Len, at)
				}
				if s.Entry >= 0 {
					if e := a.Entries[s.Entry]; s.Off < e.Off || s.Off+s.Len > e.Off+e.Len {
						t.Fatalf("%s (%d bytes): span %s [%d+%d] outside its entry [%d+%d]", name, len(d), s.Name, s.Off, s.Len, e.Off, e.Len)
					}
				}
				at = s.Off + s.Len
			}
			if at != int64(len(d)) {
				t.Fatalf("%s (%d bytes): the spans end at %d", name, len(d), at)
			}
			if last := a.Spans[len(a.Spans)-1]; last.Name == "files.f.unreadable" {
				if a.Stop.Key == "" || last.Value.Key != a.Stop.Key {
					t.Errorf("%s (%d bytes): unreadable from %d, and the read does not say why (%v)", name, len(d), last.Off, a.Stop)
				}
				stops[a.Stop.Key] = true
			}
		}
	})
	if len(stops) < 8 {
		t.Errorf("the damaged fixtures stop the read for only %d reasons: %v", len(stops), stops)
	}
}

// TestAnnotateKeysInCatalogs: every catalog key the annotator says is in
// the widget's English and Chinese catalogs, and the catalogs have no
// words of a file's fields that it never says.
func TestAnnotateKeysInCatalogs(t *testing.T) {
	en, zh := catalog(t, "en"), catalog(t, "zh")
	key := regexp.MustCompile(`"(files\.[a-z]\.[A-Za-z0-9]+)"`)
	n := 0
	said := map[string]bool{}
	for _, f := range []string{"annotate.go", "annotate_term.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range key.FindAllStringSubmatch(string(src), -1) {
			n++
			said[m[1]] = true
			for lang, c := range map[string]map[string]string{"en": en, "zh": zh} {
				if _, ok := c[m[1]]; !ok {
					t.Errorf("%s says %s, which i18n-%s.js does not have", f, m[1], lang)
				}
			}
		}
	}
	if n < 60 {
		t.Errorf("found only %d keys in the annotator's source", n)
	}
	for k := range en {
		if strings.HasPrefix(k, "files.") && len(k) > 8 && strings.Contains("fvlsw", k[6:7]) && k[7] == '.' && !said[k] {
			t.Errorf("i18n-en.js has %s, which the annotator never says", k)
		}
	}
}

var (
	han = regexp.MustCompile(`\p{Han}`)
	// ownEnglish finds English words of warren's own: a word of three
	// letters or more, outside quotes, that RabbitMQ does not name a
	// field or a property with.
	quotedText  = regexp.MustCompile(`"[^"]*"`)
	rabbitWord  = regexp.MustCompile(`\b(seq|id|crc16|vhost|Erlang|Unix|basic_message|delivery-mode|priority|flags?)\b`)
	threeOrMore = regexp.MustCompile(`\b[a-z]{3,}\b`)
)

func ownEnglish(s string) []string {
	return threeOrMore.FindAllString(rabbitWord.ReplaceAllString(quotedText.ReplaceAllString(s, ""), ""), -1)
}

// TestAnnotateChinese: in Chinese, every field name, value, entry label
// and reason to stop of every fixture file, whole or damaged, is said in
// Chinese: no English word of warren's own is left, and what has one in
// English has Chinese.
func TestAnnotateChinese(t *testing.T) {
	en, zh := catalog(t, "en"), catalog(t, "zh")
	seen := map[string]bool{}
	check := func(name, what string, w Words) {
		if w.Key == "" && w.Word == "" {
			return
		}
		e, z := inLang(en, w), inLang(zh, w)
		seen[w.Key] = true
		if left := ownEnglish(z); len(left) > 0 {
			t.Errorf("%s: the %s %q is %q in Chinese: English left: %v", name, what, e, z, left)
		} else if len(ownEnglish(e)) > 0 && !han.MatchString(z) {
			t.Errorf("%s: the %s %q is not said in Chinese: %q", name, what, e, z)
		}
	}
	fixtureFiles(t, func(name string, data []byte) {
		for _, d := range append(damaged(data), data) {
			a := Annotate(name, d, LegacyV1SegmentEntryCount)
			for _, s := range a.Spans {
				check(name, "field name", say(s.Name))
				check(name, "value", s.Value)
			}
			for _, e := range a.Entries {
				check(name, "label", e.Label)
			}
			check(name, "reason to stop", a.Stop)
		}
	})
	if len(seen) < 50 {
		t.Errorf("the fixtures say only %d keys", len(seen))
	}
}

// FuzzAnnotate: whatever the bytes and whatever the layout their name
// says, the annotation names them in order, never past their end, and
// does not panic.
func FuzzAnnotate(f *testing.F) {
	seedFixtures(f, ".qi", ".qs", ".rdq", ".idx", ".jif")
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"0.qi", "0.qs", "0.rdq", "1.idx", "journal.jif"} {
			a := Annotate(name, data, LegacyV1SegmentEntryCount)
			at := int64(0)
			for _, s := range a.Spans {
				if s.Off != at || s.Len <= 0 || s.Off+s.Len > int64(len(data)) {
					t.Fatalf("%s: span %s [%d+%d] after %d of %d bytes", name, s.Name, s.Off, s.Len, at, len(data))
				}
				at = s.Off + s.Len
			}
			if at != int64(len(data)) && len(a.Entries) < MaxAnnotatedEntries {
				t.Fatalf("%s: the spans end at %d of %d bytes", name, at, len(data))
			}
		}
	})
}
