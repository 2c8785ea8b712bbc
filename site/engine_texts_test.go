package site_test

import (
	"encoding/json"
	"flag"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"warren/engine"
	"warren/engine/jsonenc"
	"warren/engine/say"
	"warren/engine/script"

	"warren/site/widgettest"
)

// updateEngineTexts rewrites widgettest/testdata/engine-texts.json from
// the engine's source: go test ./site -run TestEngineTextsAreListed -update-engine-texts
var updateEngineTexts = flag.Bool("update-engine-texts", false, "rewrite widgettest/testdata/engine-texts.json")

// widgetTexts lists the widget's own errors that reach the console or the
// problem box (the engine's come as data, engine/say, and are said from
// the catalogs by key): what it throws (new Error, LinkError, EngineError
// with a literal) and the fallbacks it says when the worker gives no
// reason, as formats with %s where a part is computed.
func widgetTexts(t *testing.T) [][2]string {
	var out [][2]string
	seen := map[string]bool{}
	widget, err := filepath.Glob(filepath.Join("static", "widget", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range widget {
		if strings.HasPrefix(filepath.Base(path), "i18n") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel := "site/" + filepath.ToSlash(path)
		for _, m := range jsError.FindAllStringSubmatch(string(src), -1) {
			lit := m[1]
			if lit == "" {
				lit = m[2]
			}
			if lit == "" {
				lit = m[3]
			}
			format := jsPart.ReplaceAllString(strings.ReplaceAll(lit, "%", "%%"), "%s")
			if format != "" && format != "%s" && !seen[format] {
				seen[format] = true
				out = append(out, [2]string{rel, format})
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	return out
}

// jsError finds the widget's own error texts: what it throws (new Error,
// LinkError, EngineError with a literal) and the fallbacks it says when
// the worker gives no reason (why || "...").
var jsError = regexp.MustCompile("new (?:Link|Engine)?Error\\((?:`([^`]*)`|\"([^\"]*)\")|(?:why|dead) = [^\n]*?\\|\\| \"([^\"]*)\"")

// jsPart is a computed part of a template literal.
var jsPart = regexp.MustCompile(`\$\{[^}]*\}`)

// callName is the dotted name of an identifier or selector ("" else).
func callName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x := callName(e.X); x != "" {
			return x + "." + e.Sel.Name
		}
	case *ast.StarExpr:
		return callName(e.X)
	case *ast.UnaryExpr:
		return callName(e.X)
	}
	return ""
}

// format is the message an expression builds, as a Go format: literals
// as they are (a % of a plain literal doubled), Sprintf's format, and %s
// for what is computed. An expression with no literal at all is "".
func format(e ast.Expr, isFormat bool) string {
	s, lit := formatOf(e, isFormat)
	if !lit {
		return ""
	}
	return s
}

func formatOf(e ast.Expr, isFormat bool) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "%s", false
		}
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			return "%s", false
		}
		if !isFormat {
			s = strings.ReplaceAll(s, "%", "%%")
		}
		return s, true
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, la := formatOf(e.X, false)
			b, lb := formatOf(e.Y, false)
			return a + b, la || lb
		}
	case *ast.ParenExpr:
		return formatOf(e.X, isFormat)
	case *ast.CallExpr:
		if callName(e.Fun) == "fmt.Sprintf" && len(e.Args) > 0 {
			return formatOf(e.Args[0], true)
		}
	}
	return "%s", false
}

// codeWords are the words of the command language, which a Chinese line
// keeps as they are: command names, argument keys, their values, columns
// and views.
func codeWords() []string {
	var words []string
	for _, name := range script.Names() {
		spec, _ := script.Lookup(name)
		words = append(words, strings.FieldsFunc(name, func(r rune) bool { return r == '.' || r == '_' })...)
		for _, p := range spec.Params {
			words = append(words, p.Key)
			words = append(words, p.Values...)
		}
		words = append(words, spec.WordSet...)
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// views are show's views after some work, whose lines hold a few words
// of warren's own among their name=value fields.
var views = []string{
	"queue.declare queue=q durable",
	"basic.publish key=q body=hello count=20 persistent",
	"basic.consume queue=q",
	"run ms=100",
	"show gc", "show throughput", "show rates", "show schedulers", "show cpu", "show processes", "show cluster",
	"show queues", "show consumers", "show credit", "show memory", "show clock", "show exchanges", "show files",
	"run ms=10",
	"show cpu",
}

// gcRuns make the message store collect its garbage, 3.10's merge of a
// file into its neighbour and 3.13's compaction of a file in place, and
// show every step (engine/gc_show_test.go).
var gcRuns = [][]string{
	{"set file-size-limit=16384", "queue.declare queue=big durable x-queue-version=2", "confirm.select",
		"basic.publish key=big size=5000 count=12 persistent", "basic.consume queue=big tag=w on=c2.1",
		"basic.ack tag=1 on=c2.1", "basic.ack tag=2 on=c2.1", "basic.ack tag=3 on=c2.1", "basic.ack tag=5 on=c2.1",
		"basic.ack tag=6 on=c2.1", "basic.ack tag=7 on=c2.1", "basic.ack tag=9 on=c2.1", "run ms=1000", "show gc"},
	{"set version=3.13", "set file-size-limit=16384", "queue.declare queue=big durable x-queue-version=2",
		"basic.publish key=big size=5000 count=12 persistent", "basic.consume queue=big tag=w on=c2.1",
		"basic.ack tag=5 on=c2.1", "basic.ack tag=6 on=c2.1", "basic.ack tag=7 on=c2.1", "run ms=20000", "show gc"},
}

// runMistakes runs typicalMistakes on a recording engine, views on
// another and each of gcRuns on its own: each line with the console lines
// it printed, and the events list's event, as the bridge gives it (its
// line, the line as data, the message it handled), of every event of the
// mistakes.
func runMistakes() ([][]any, []json.RawMessage) {
	s := engine.New(engine.Options{Record: true})
	var out [][]any
	for _, line := range widgettest.TypicalMistakes {
		out = append(out, append([]any{line}, said(s.Run(line, engine.RunOptions{}))...))
	}
	var events []json.RawMessage
	for n := int64(1); n <= s.EventCount(); n++ {
		ev := s.Event(n)
		kind, input := s.EventKind(&ev)
		e := &jsonenc.Encoder{}
		e.Open("", '{')
		e.Str("text", s.Describe(&ev))
		e.Said("said", s.EventSaid(&ev))
		e.Str("kind", kind)
		e.Bool("input", input)
		e.Close('}')
		events = append(events, json.RawMessage(e.String()))
	}
	v := engine.New(engine.Options{Record: true})
	for _, line := range views {
		out = append(out, append([]any{line}, said(v.Run(line, engine.RunOptions{}))...))
	}
	for _, script := range gcRuns {
		g := engine.New(engine.Options{})
		for _, line := range script {
			out = append(out, append([]any{line}, said(g.Run(line, engine.RunOptions{}))...))
		}
	}
	return out, events
}

// said is a command's output lines as the bridge gives them: each line
// the engine says as data as its sentence ({"text", "key", "args"}), the
// others as they are, and a line that shows a reply of RabbitMQ's whose
// meaning the engine says as {"line": the line, "explain": the sentence}.
func said(r engine.Result) []any {
	out := make([]any, len(r.Lines))
	for i, l := range r.Lines {
		out[i] = l
	}
	sentence := func(t say.Text) json.RawMessage {
		e := &jsonenc.Encoder{}
		e.Said("", t)
		return json.RawMessage(e.String())
	}
	for _, l := range r.Said {
		out[l.At] = sentence(l.Text)
	}
	for _, l := range r.Explain {
		out[l.At] = map[string]any{"line": out[l.At], "explain": sentence(l.Text)}
	}
	return out
}

// eventTimes are the parts of an event line that the cost model decides
// (when it ran, how long it took), which the file need not follow.
var eventTimes = regexp.MustCompile(`t=[0-9.]+ms|\([0-9]+µs\)|"[0-9.]+ms"|"[0-9]+"\s*\]`)

// timeless is the file with its events' times left out.
func timeless(s string) string { return eventTimes.ReplaceAllString(s, "") }

// TestEngineTextsAreListed keeps widgettest/testdata/engine-texts.json the
// sentences the engine says as data (engine/say: "said", key -> English),
// each of which the other languages' catalogs must have
// (widgettest/i18n.test.mjs), the widget's own errors ("texts"), and what
// the console shows for typical mistakes and views, which the widget's
// Chinese is tested against (widgettest/console-zh.test.mjs).
func TestEngineTextsAreListed(t *testing.T) {
	texts := widgetTexts(t)
	if len(texts) < 20 {
		t.Fatalf("found only %d of the widget's own texts", len(texts))
	}
	var usage [][2]string
	for _, name := range script.Names() {
		spec, _ := script.Lookup(name)
		usage = append(usage, [2]string{name, spec.Usage})
	}
	mistakes, events := runMistakes()
	said := map[string]string{}
	for _, k := range say.Keys() {
		said[k], _ = say.English(k)
	}
	want := map[string]any{"texts": texts, "usage": usage, "names": codeWords(), "mistakes": mistakes, "events": events, "said": said}
	b, err := json.MarshalIndent(want, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	path := filepath.Join("widgettest", "testdata", "engine-texts.json")
	if *updateEngineTexts {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || timeless(string(got)) != timeless(string(b)) {
		t.Fatalf("%s is not the engine's texts of now (%v): rewrite it with go test ./site -run TestEngineTextsAreListed -update-engine-texts, then give every new key its Chinese in widget/i18n-zh.js", path, err)
	}
}
