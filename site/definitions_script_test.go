package site

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"warren/engine/definitions"
	"warren/internal/nodetest"
)

// TestDefinitionsScriptIsTheEngines runs the editor's definitions.js under
// Node on definitions files (RabbitMQ 3.10.8's own exports among them)
// and checks that it writes the lines engine/definitions.Script writes, and
// refuses what Parse refuses.
func TestDefinitionsScriptIsTheEngines(t *testing.T) {
	node := nodetest.Path(t, "the editor's definitions.js")
	files := map[string]string{}
	for _, name := range []string{"broker-export.json", "broker-export-topology.json"} {
		b, err := os.ReadFile(filepath.Join("..", "engine", "definitions", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	// what the exports do not show: quoting, values the language cannot
	// write, other vhosts, the default exchange, keys it does not know
	files["made.json"] = `{"queues":[{"name":"a b","vhost":"/","durable":false,"auto_delete":false,"arguments":{"x-n":"5","x-t":"true","x-list":["a"],"x-big":5000000000,"plain":"x"}},` +
		`{"name":"amq.gen-7","arguments":{}},{"name":"s","arguments":{"x-queue-type":"stream"}},{"name":"v","vhost":"v2"}],` +
		`"exchanges":[{"name":"","type":"direct"},{"name":"q\"uote","type":"topic","internal":true,"arguments":{"alternate-exchange":"(x"}}],` +
		`"bindings":[{"source":"q\"uote","destination":"a b","destination_type":"queue","routing_key":"k k","arguments":{"x-match":"any","n":-7,"b":false}},` +
		`{"source":"","destination":"a b","destination_type":"queue","routing_key":"a b"}],` +
		`"policies":[{"name":"p","pattern":"^a","definition":{"max-length":3}}],"parameters":[{"component":"shovel","name":"s1","vhost":"/"}],"extra":1}`
	bad := []string{
		`[1]`,
		`{"queues":[{"name":"q","durable":"yes"}]}`,
		`{"queues":[{"name":"q","arguments":{"x-max-length":null}}]}`,
		`{"queues":[{"name":"q","arguments":{"x-r":1.5}}]}`,
		`{"bindings":[{"source":"x","destination":"q","destination_type":"topic"}]}`,
		`{"exchanges":[{"type":"direct"}]}`,
		`{"policies":[{"name":"p","pattern":"a","apply-to":"nothing"}]}`,
	}
	for i, src := range bad {
		files["bad"+string(rune('0'+i))] = src
	}
	in, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	prog := `import { definitionsScript } from "./static/widget/definitions.js";
const files = JSON.parse(process.argv[1]);
const out = {};
for (const [name, text] of Object.entries(files)) {
  try { out[name] = { lines: definitionsScript(text) }; } catch (e) { out[name] = { error: e.message }; }
}
console.log(JSON.stringify(out));`
	cmd := exec.Command(node, "--input-type=module", "-e", prog, string(in))
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got map[string]struct {
		Lines []string
		Error string
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("node printed %s: %v", raw, err)
	}
	for name, src := range files {
		d, err := definitions.Parse(src)
		js := got[name]
		if err != nil {
			// where the file is wrong, as Go says it; a mistake in the
			// JSON itself each names its own way (Go the byte, JavaScript
			// the item)
			want := err.Error()
			if i := strings.Index(want, ": "); i >= 0 {
				want = want[:i]
			}
			if strings.HasPrefix(want, "JSON at byte") {
				want = ""
			}
			if js.Error == "" || !strings.HasPrefix(js.Error, want) {
				t.Errorf("%s: Go refuses it (%v); definitions.js says %q, lines %q", name, err, js.Error, js.Lines)
			}
			continue
		}
		want := definitions.Script(d)
		if js.Error != "" || strings.Join(js.Lines, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: definitions.js wrote\n%s\n(error %q)\nGo writes\n%s", name, strings.Join(js.Lines, "\n"), js.Error, strings.Join(want, "\n"))
		}
	}
}
