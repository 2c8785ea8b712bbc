//go:build !(js && wasm)

package engine

import (
	"os"
	"slices"
	"strings"
	"testing"

	"warren/engine/definitions"
)

func brokerExport(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("definitions/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestImportDefinitionsTheBrokersExport: the broker's own export, imported,
// gives the topology and says what it left out and why.
func TestImportDefinitionsTheBrokersExport(t *testing.T) {
	s := New(Options{})
	out := s.runLine("import_definitions " + brokerExport(t, "broker-export.json"))
	if len(out) != 8 || out[0] != "not imported: users (2: ops, guest): warren has no users; every connection is guest" ||
		out[7] != "not imported: bindings whose exchange or queue does not exist (1: ix -> q.a): RabbitMQ 3.10.8 skips them on import" {
		t.Fatalf("import printed:\n%s", strings.Join(out, "\n"))
	}
	got := s.runLine("list_queues name durable auto_delete arguments policy")
	want := []string{
		"queue name=q.a durable=false auto_delete=true arguments=[] policy=p1",
		`queue name=q.b durable=true auto_delete=false arguments=[{"x-dead-letter-exchange","dlx"},{"x-max-length",10},{"x-queue-mode","lazy"}] policy=p1`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("list_queues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// the alternate exchange routes, the policy's max-length holds
	s.runLine("queue.declare queue=lost")
	s.runLine("queue.bind queue=lost exchange=unrouted")
	pub := s.runLine("basic.publish exchange=orders key=nowhere body=x mandatory")
	if len(pub) != 0 {
		t.Errorf("a publish the alternate exchange takes came back: %q", pub)
	}
	s.runLine("basic.publish exchange=orders key=k body=m{i} count=7")
	if got := s.runLine("list_queues name messages"); !slices.Contains(got, "queue name=q.b messages=5") {
		t.Errorf("after 7 publishes under max-length 5: %q", got)
	}
}

// TestImportThenExportIsTheScript: a file imported and the same file's
// lines of the language (what the playground writes at the top of a
// script) make the same node, which exports the same JSON.
func TestImportThenExportIsTheScript(t *testing.T) {
	src := brokerExport(t, "broker-export.json")
	imported := New(Options{})
	imported.runLine("import_definitions " + src)
	d, err := definitions.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	typed := New(Options{})
	for _, l := range definitions.Script(d) {
		if strings.HasPrefix(l, "#") {
			continue
		}
		for _, o := range typed.runLine(l) {
			if strings.HasPrefix(o, "error") || strings.Contains(o, "closed") {
				t.Errorf("%s: %s", l, o)
			}
		}
	}
	a, b := imported.runLine("export_definitions"), typed.runLine("export_definitions")
	if len(a) != 1 || !slices.Equal(a, b) {
		t.Errorf("imported exports\n%q\nthe script's node exports\n%q", a, b)
	}
	if !strings.Contains(a[0], `"name":"orders"`) || strings.Contains(a[0], `"name":"ix"`) {
		t.Errorf("export lacks orders or holds ix: %s", a[0])
	}
}

// TestExportLeavesOutWhatTheBrokerDoes: internal, default and amq.*
// exchanges and exclusive queues are not exported; an internal
// exchange's bindings are.
func TestExportLeavesOutWhatTheBrokerDoes(t *testing.T) {
	s := New(Options{})
	for _, l := range []string{
		"exchange.declare exchange=ix type=topic internal",
		"queue.declare queue=mine exclusive",
		"queue.declare queue=shared",
		"queue.bind queue=shared exchange=ix key=a",
		"queue.bind queue=shared exchange=amq.topic key=b",
	} {
		s.runLine(l)
	}
	out := s.runLine("export_definitions")
	if len(out) != 1 {
		t.Fatalf("export printed %q", out)
	}
	want := `{"bindings":[{"arguments":{},"destination":"shared","destination_type":"queue","routing_key":"b","source":"amq.topic","vhost":"/"},` +
		`{"arguments":{},"destination":"shared","destination_type":"queue","routing_key":"a","source":"ix","vhost":"/"}],"exchanges":[],` +
		`"global_parameters":[],"parameters":[],"permissions":[{"configure":".*","read":".*","user":"guest","vhost":"/","write":".*"}],"policies":[],` +
		`"queues":[{"arguments":{},"auto_delete":false,"durable":false,"name":"shared","type":"classic","vhost":"/"}],`
	if !strings.HasPrefix(out[0], want) {
		t.Errorf("export:\n%s\nwant it to start\n%s", out[0], want)
	}
}

// TestRefusedImportChangesNothing: a file the broker would refuse, or
// that is not JSON, is refused whole and says where.
func TestRefusedImportChangesNothing(t *testing.T) {
	s := New(Options{})
	s.runLine("queue.declare queue=before")
	refusedChangesNothing(t, s, `import_definitions {"queues":[{"name":"a","durable":true}],"exchanges":[{"name":"x","type":"sideways"}]}`,
		"exchanges[0] x: unknown exchange type 'sideways'")
	refusedChangesNothing(t, s, `import_definitions {"queues":[{"name":"a",}]}`, "import_definitions: JSON at byte 23: expected a key in quotes")
	refusedChangesNothing(t, s, `import_definitions {"policies":[{"name":"p","pattern":"^a","definition":{"overflow":"sideways"}}]}`,
		`policy p: Validation failed: <<"sideways">> is not a valid overflow value`)
	refusedChangesNothing(t, s, `import_definitions {"queues":[{"name":"a","arguments":{"x-max-length":"ten"}}]}`, "invalid arg 'x-max-length'")
	refusedChangesNothing(t, s, `import_definitions`, "missing the definitions")
}

// TestImportOnANodeRefused: an import on a node the cluster lacks, or on
// a stopped one, is refused whole and names the node.
func TestImportOnANodeRefused(t *testing.T) {
	s := New(Options{})
	s.runLine("cluster nodes=2")
	s.runLine("queue.declare queue=before")
	q := `{"queues":[{"name":"a","durable":true}]}`
	refusedChangesNothing(t, s, "import_definitions node=3 "+q, `import_definitions: no node "3" in the cluster`)
	refusedChangesNothing(t, s, "import_definitions node= "+q, "node= needs a node's number or name")
	refusedChangesNothing(t, s, "import_definitions node=2", "missing the definitions")
	s.runLine("stop_app node=2")
	refusedChangesNothing(t, s, "import_definitions node=rabbit-2@localhost "+q, "import_definitions: rabbit-2@localhost is stopped")
	if out := s.runLine("import_definitions node=1 " + q); len(out) != 0 {
		t.Fatalf("import on the running node printed %q", out)
	}
	if got := s.runLine("list_queues name node"); !slices.Contains(got, "queue name=a node=rabbit@localhost") {
		t.Errorf("list_queues after the import on node 1: %q", got)
	}
}
