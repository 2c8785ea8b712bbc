package definitions_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"warren/engine/amqp"
	"warren/engine/definitions"
	"warren/engine/script"
)

// The files in testdata are what `rabbitmqctl export_definitions -`
// printed on a RabbitMQ 3.10.8 node: broker-export-topology.json after
// importing a topology (queues with arguments, an internal exchange, an
// alternate exchange, an exchange-to-exchange binding with header
// arguments, a policy); broker-export.json after adding a second vhost
// with a queue, a user with permissions and topic permissions, a global
// parameter, a quorum queue and a binding from the internal exchange.

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseTheBrokersExport(t *testing.T) {
	d, err := definitions.Parse(read(t, "broker-export.json"))
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, l := range d.Left {
		left = append(left, l.Line())
	}
	want := []string{
		"not imported: users (2: ops, guest): warren has no users; every connection is guest",
		"not imported: vhosts (1: other): warren simulates one vhost, /",
		"not imported: permissions (2: ops in other, guest in /): warren checks no permissions",
		"not imported: topic_permissions (1: ops in other): warren checks no permissions",
		"not imported: global_parameters (1: team): warren models no global parameters",
		"not imported: queues in other vhosts (1: other elsewhere): warren simulates one vhost, /",
		"not imported: quorum queues (1: qq): warren's RabbitMQ 3.10 simulates classic queues",
	}
	if !slices.Equal(left, want) {
		t.Errorf("left out:\n%s\nwant:\n%s", strings.Join(left, "\n"), strings.Join(want, "\n"))
	}
	var names []string
	for _, q := range d.Queues {
		names = append(names, q.Name)
	}
	for _, x := range d.Exchanges {
		names = append(names, x.Name)
	}
	if want := []string{"q.a", "q.b", "h", "unrouted", "orders"}; !slices.Equal(names, want) {
		t.Errorf("queues and exchanges %q, want %q", names, want)
	}
	if len(d.Bindings) != 4 || len(d.Policies) != 1 {
		t.Fatalf("%d bindings and %d policies, want 4 and 1", len(d.Bindings), len(d.Policies))
	}
	// rabbit_misc:to_amqp_table: a JSON integer is a long, keys sorted
	args := d.Bindings[2].Args
	if args.String() != "{format=pdf, n=5, x-match=any}" || args[1].Val.Kind != amqp.Long {
		t.Errorf("binding arguments %s (n is %s), want {format=pdf, n=5, x-match=any} with n a long", args, args[1].Val.Kind)
	}
	p := d.Policies[0]
	if p.Pattern != `^q\.` || p.ApplyTo != "queues" || p.Priority != 3 || p.Definition.String() != "{max-length=5, overflow=reject-publish}" {
		t.Errorf("policy %+v", p)
	}
}

// TestExportIsTheBrokersForm: what the broker exported, read and written
// again, is the broker's JSON byte for byte, but for the order of the
// items in each list (the broker's is its tables' hash order).
func TestExportIsTheBrokersForm(t *testing.T) {
	src := read(t, "broker-export-topology.json")
	d, err := definitions.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	got := definitions.Export(d)
	if canonical(t, got) != canonical(t, src) {
		t.Errorf("export:\n%s\nthe broker's:\n%s", got, src)
	}
	if keys(t, got) != keys(t, src) {
		t.Errorf("top-level keys %s, the broker's %s", keys(t, got), keys(t, src))
	}
	if again := definitions.Export(mustParse(t, got)); again != got {
		t.Errorf("exporting the export again gives\n%s\nnot\n%s", again, got)
	}
}

func mustParse(t *testing.T, src string) *definitions.Defs {
	t.Helper()
	d, err := definitions.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// canonical sorts the items of each top-level list by their bytes and
// joins everything back, each item as it was written.
func canonical(t *testing.T, src string) string {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(src), &top); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, src)
	}
	var b strings.Builder
	for _, k := range sortedKeys(top) {
		var items []json.RawMessage
		if json.Unmarshal(top[k], &items) != nil {
			b.WriteString(k + "=" + string(top[k]) + "\n")
			continue
		}
		var s []string
		for _, it := range items {
			s = append(s, string(it))
		}
		slices.Sort(s)
		b.WriteString(k + "=" + strings.Join(s, "|") + "\n")
	}
	return b.String()
}

func sortedKeys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// keys lists the top-level keys in the order written.
func keys(t *testing.T, src string) string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(src))
	var out []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return strings.Join(out, ",")
}

func TestSyntaxErrorsSayWhere(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{"queues":[{"name":}]}`, "JSON at byte 19: unexpected character '}'"},
		{`{"queues":[`, "JSON at byte 11: unexpected end of the text"},
		{`{"queues":[]} x`, "JSON at byte 14: text after the end"},
		{`[1]`, "the file: must be a JSON object"},
		{`{"queues":[{"name":"q","durable":"yes"}]}`, "queues[0].durable: must be true or false"},
		{`{"queues":[{"name":"q","arguments":{"x-max-length":null}}]}`, "queues[0].arguments: x-max-length: null is not allowed"},
		{`{"bindings":[{"source":"x","destination":"q","destination_type":"topic"}]}`, `bindings[0].destination_type: must be queue or exchange, got "topic"`},
		{`{"exchanges":[{"type":"direct"}]}`, "exchanges[0].name: is missing"},
		{strings.Repeat("[", 100), "nested deeper than 64 levels"},
	} {
		_, err := definitions.Parse(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestScriptIsTheLanguage: a file becomes lines the language reads, in
// import order, with what it leaves out in comments.
func TestScriptIsTheLanguage(t *testing.T) {
	d := mustParse(t, read(t, "broker-export.json"))
	lines := definitions.Script(d)
	want := []string{
		"exchange.declare exchange=h type=headers durable",
		"exchange.declare exchange=unrouted type=fanout durable",
		"exchange.declare exchange=orders type=direct durable alternate-exchange=unrouted",
		`set_policy name=p1 pattern=^q\. apply-to=queues priority=3 max-length=5 overflow=reject-publish`,
		"queue.declare queue=q.a auto-delete",
		"queue.declare queue=q.b durable x-dead-letter-exchange=dlx x-max-length=10 x-queue-mode=lazy",
		"queue.bind queue=q.a exchange=amq.topic key=a.#",
		"exchange.bind destination=h source=orders format=pdf n=5 x-match=any",
		"queue.bind queue=q.b exchange=orders key=k",
	}
	var cmds []string
	for _, l := range lines {
		if strings.HasPrefix(l, "# not imported: ") {
			continue
		}
		cmds = append(cmds, l)
		if _, err := script.ParseLine(l, 1); err != nil {
			t.Errorf("%s: %v", l, err)
		}
	}
	if !slices.Equal(cmds, want) {
		t.Errorf("lines:\n%s\nwant:\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}
	if n := len(lines) - len(cmds); n != len(d.Left)+1 {
		t.Errorf("%d comment lines, want one for each of the %d kinds left out and one for the binding from ix", n, len(d.Left))
	}
	q := definitions.Script(&definitions.Defs{Queues: []definitions.Queue{{Name: "a b", Args: amqp.Table{
		{Key: "x-n", Val: amqp.StrValue("5")}, {Key: "x-list", Val: amqp.ArrayValue(amqp.StrValue("a"))}}}}})
	if want := []string{"# not imported: argument x-list of the line below: the language cannot write it", `queue.declare queue="a b" x-n="5"`}; !slices.Equal(q, want) {
		t.Errorf("quoting: %q, want %q", q, want)
	}
}
