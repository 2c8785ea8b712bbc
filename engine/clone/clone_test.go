package clone

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

type node struct {
	name  string
	next  *node
	peers map[int]*node
	buf   []byte
	items []item
	any   any
	fn    func(int) int
	arr   [2]*node
}

type item struct {
	n    int
	back *node
}

func double(x int) int { return 2 * x }

// TestCopyIsDeepAndKeepsSharing: a cycle, a map of pointers, a slice of
// structs pointing back, an interface holding a struct and a plain
// function come out as a graph of their own with the same shape.
func TestCopyIsDeepAndKeepsSharing(t *testing.T) {
	a := &node{name: "a", buf: []byte("hello"), fn: double}
	b := &node{name: "b", next: a, any: item{n: 7, back: a}}
	a.next = b
	a.peers = map[int]*node{1: b, 2: a}
	a.items = []item{{n: 1, back: b}, {n: 2, back: a}}
	a.arr = [2]*node{b, b}

	c, bytes, err := Copy(a)
	if err != nil {
		t.Fatal(err)
	}
	if bytes <= 0 {
		t.Fatalf("bytes %d", bytes)
	}
	if c == a || c.next == b || c.next.next != c {
		t.Fatal("the cycle is not copied as a cycle of new nodes")
	}
	if c.peers[2] != c || c.peers[1] != c.next || c.items[0].back != c.next || c.items[1].back != c {
		t.Fatal("sharing is lost")
	}
	if c.arr[0] != c.next || c.arr[1] != c.next {
		t.Fatal("array of pointers not remapped")
	}
	if it := c.next.any.(item); it.back != c || it.n != 7 {
		t.Fatalf("interface value: %+v", it)
	}
	if c.fn(21) != 42 {
		t.Fatal("plain function lost")
	}
	c.buf[0] = 'J'
	c.items[0].n = 99
	if string(a.buf) != "hello" || a.items[0].n != 1 {
		t.Fatal("the copy shares memory with the original")
	}
}

// TestCopyMapsWithPointers: a map's keys and values that hold pointers
// come out pointing into the copy, each entry its own, and the values
// that hold none as they were.
func TestCopyMapsWithPointers(t *testing.T) {
	type pair struct {
		n    *node
		tags []string
	}
	type graph struct {
		nodes  []*node
		byNode map[*node]pair
		plain  map[string]int
	}
	g := &graph{plain: map[string]int{"x": 1, "y": 2}, byNode: map[*node]pair{}}
	for i := range 50 {
		n := &node{name: strconv.Itoa(i)}
		g.nodes = append(g.nodes, n)
	}
	for i, n := range g.nodes {
		g.byNode[n] = pair{n: g.nodes[(i+1)%len(g.nodes)], tags: []string{n.name}}
	}
	c, _, err := Copy(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.byNode) != len(g.byNode) || len(c.plain) != 2 || c.plain["y"] != 2 {
		t.Fatalf("%d entries, plain %v", len(c.byNode), c.plain)
	}
	for i, n := range c.nodes {
		p, ok := c.byNode[n]
		if !ok {
			t.Fatalf("node %d: its key is not the copy's node", i)
		}
		if p.n != c.nodes[(i+1)%len(c.nodes)] || p.tags[0] != n.name {
			t.Fatalf("node %d: value %+v does not point into the copy", i, p)
		}
		p.tags[0] = "changed"
	}
	for _, n := range g.nodes {
		if g.byNode[n].tags[0] != n.name {
			t.Fatal("the copy's values share their slices with the original's")
		}
	}
}

type onePtr struct{ p *node }

// TestCopyInterfaces: an interface holding a pointer, a struct of one
// pointer (kept in the interface's data word itself), a boxed struct with
// pointers and a plain value.
func TestCopyInterfaces(t *testing.T) {
	a := &node{name: "a"}
	vals := []any{a, onePtr{a}, item{n: 3, back: a}, 42, "s", nil}
	c, _, err := Copy(&vals)
	if err != nil {
		t.Fatal(err)
	}
	v := *c
	na := v[0].(*node)
	if na == a || na.name != "a" {
		t.Fatal("pointer in interface not copied")
	}
	if v[1].(onePtr).p != na || v[2].(item).back != na || v[2].(item).n != 3 {
		t.Fatalf("values in interfaces not remapped: %+v %+v", v[1], v[2])
	}
	if v[3] != 42 || v[4] != "s" || v[5] != nil {
		t.Fatalf("plain values: %v", v[3:])
	}
	if d := Diff(&vals, c); d != "" {
		t.Fatalf("copy differs: %s", d)
	}
	na.name = "changed"
	if d := Diff(&vals, c); d == "" {
		t.Fatal("Diff missed a changed field")
	}
}

// TestCopyUpToGivesUp: a copy past its limit stops with TooLarge; under
// the limit it is whole.
func TestCopyUpToGivesUp(t *testing.T) {
	big := &node{buf: make([]byte, 1<<20)}
	_, _, err := CopyUpTo(big, 1<<16)
	var ref *Refused
	if !errors.As(err, &ref) || !ref.TooLarge {
		t.Fatalf("got %v", err)
	}
	c, bytes, err := CopyUpTo(big, 1<<21)
	if err != nil || len(c.buf) != 1<<20 || bytes < 1<<20 {
		t.Fatalf("got %v, %d bytes", err, bytes)
	}
}

// TestCopyRefusesClosures: a function literal that captures state cannot
// be copied, and the error says where it is.
func TestCopyRefusesClosures(t *testing.T) {
	k := 3
	a := &node{next: &node{fn: func(x int) int { return x * k }}}
	_, _, err := Copy(a)
	var ref *Refused
	if !errors.As(err, &ref) || !strings.Contains(ref.Path, ".next") || !strings.Contains(ref.Path, ".fn") {
		t.Fatalf("got %v", err)
	}
	b := &node{any: strings.NewReader("x").Len}
	if _, _, err := Copy(b); err == nil {
		t.Fatal("a method value was copied")
	}
	ch := &struct{ c chan int }{make(chan int)}
	if _, _, err := Copy(ch); err == nil {
		t.Fatal("a channel was copied")
	}
}

// linked holds, beside its own state, links tagged clone:"-" to what
// every copy shares: a log and a closure.
type linked struct {
	n    int
	own  *node
	log  *[]string      `clone:"-"`
	hook func(int) bool `clone:"-"`
	seen bool           `clone:"-"`
}

// TestTaggedFieldsStayOut: fields tagged clone:"-" are neither copied nor
// followed (a closure there is no refusal) and are zero in the copy; Diff
// does not compare them.
func TestTaggedFieldsStayOut(t *testing.T) {
	log := []string{"kept"}
	limit := 3
	a := &linked{n: 1, own: &node{name: "mine"}, log: &log, hook: func(x int) bool { return x < limit }, seen: true}
	c, _, err := Copy(a)
	if err != nil {
		t.Fatalf("a closure behind clone:\"-\" was followed: %v", err)
	}
	if c.n != 1 || c.own == a.own || c.own.name != "mine" {
		t.Errorf("the state was not copied deep: %+v", c)
	}
	if c.log != nil || c.hook != nil || c.seen {
		t.Errorf("tagged fields were copied: log %v hook %v seen %v", c.log, c.hook != nil, c.seen)
	}
	if d := Diff(a, c); d != "" {
		t.Errorf("Diff compared a tagged field: %s", d)
	}
	c.n = 2
	if d := Diff(a, c); !strings.Contains(d, ".n") {
		t.Errorf("Diff = %q, want the difference in .n", d)
	}
}

// TestSharedIsCountedNotCopied: a copy shares Shared values as it shares
// strings, wherever they are (a field, a slice, a map, an interface), and
// CopySized counts their bytes once each, apart from what it allocated.
func TestSharedIsCountedNotCopied(t *testing.T) {
	type file struct {
		chunks  []Shared
		durable []Shared
		byName  map[string]Shared
		boxed   any
		name    string
	}
	big := Shared(strings.Repeat("x", 1<<20))
	other := Shared(strings.Repeat("y", 1000))
	f := &file{
		chunks:  []Shared{big, other},
		durable: []Shared{big},
		byName:  map[string]Shared{"a": other},
		boxed:   big,
		name:    strings.Repeat("n", 5000),
	}
	c, size, err := CopySized(f, 1<<16)
	if err != nil {
		t.Fatal(err)
	}
	if size.Shared != 1<<20+1000 {
		t.Errorf("shared %d bytes, want %d", size.Shared, 1<<20+1000)
	}
	if size.Copied > 1<<12 {
		t.Errorf("the copy allocated %d bytes", size.Copied)
	}
	if unsafe.StringData(string(c.chunks[0])) != unsafe.StringData(string(big)) || c.boxed.(Shared) != big || c.byName["a"] != other {
		t.Error("the copy does not hold the same bytes")
	}
	if d := Diff(f, c); d != "" {
		t.Errorf("the copy differs: %s", d)
	}
	// a Shared made from bytes keeps their memory, and gives it back
	b := []byte("a message's term")
	if s := SharedOf(b); string(s) != string(b) || unsafe.StringData(string(s)) != &b[0] || &s.Bytes()[0] != &b[0] {
		t.Error("SharedOf or Bytes copied the bytes")
	}
}
