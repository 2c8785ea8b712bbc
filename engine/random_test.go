package engine

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"warren/engine/script"
)

// The random tester draws scripts from the command language's own spec
// (script.Lookup), runs each straight and again with seeks back and forth,
// and checks what any script must keep: nothing panics, a refused line
// (one `error:` line) changes nothing, not even after a seek back, and
// the seeks change nothing either (same trace, same state as the straight
// run). `go test` runs a bounded, seeded set; more with
//
//	go test -run TestRandomScripts ./engine -random.scripts=2000 -random.seed=7
var (
	randomScripts = flag.Int("random.scripts", 100, "how many random scripts TestRandomScripts runs")
	randomSeed    = flag.Uint64("random.seed", 1, "the first seed of TestRandomScripts (script i uses seed+i)")
	randomLines   = flag.Int("random.lines", 24, "lines per random script")
)

func TestRandomScripts(t *testing.T) {
	failed := 0
	for i := 0; i < *randomScripts && failed < 5; i++ {
		seed := *randomSeed + uint64(i)
		lines := randomScript(seed, *randomLines)
		if msg := checkScript(t, seed, lines); msg != "" {
			t.Errorf("seed %d: %s\nthe script:\n%s", seed, msg, strings.Join(lines, "\n"))
			failed++
		}
	}
}

// gen draws command lines from the spec with values that make the node
// do something: a few shared names, small numbers, now and then a value
// the parser or the broker refuses.
type gen struct {
	r     *rand.Rand
	names []string // every command, from the spec
}

func randomScript(seed uint64, n int) []string {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x5eed)), names: script.Names()}
	var lines []string
	if g.r.IntN(4) == 0 {
		lines = append(lines, "cluster nodes="+strconv.Itoa(2+g.r.IntN(2)))
		if g.r.IntN(2) == 0 {
			lines = append(lines, "connect on=c2 node=2")
		}
	}
	for len(lines) < n {
		lines = append(lines, g.line())
	}
	return lines
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// clientHeavy makes AMQP methods come up more often than the rest.
func (g *gen) command() string {
	if g.r.IntN(3) > 0 {
		return g.pick("queue.declare", "queue.bind", "basic.publish", "basic.publish", "basic.consume", "basic.ack",
			"basic.get", "basic.qos", "exchange.declare", "confirm.select", "basic.nack", "queue.delete")
	}
	return g.names[g.r.IntN(len(g.names))]
}

func (g *gen) line() string {
	name := g.command()
	if name == "submit" {
		inner := g.command()
		for spec, _ := script.Lookup(inner); spec.Engine || !strings.Contains(inner, "."); spec, _ = script.Lookup(inner) {
			inner = g.command()
		}
		return "submit " + g.args(inner)
	}
	return g.args(name)
}

func (g *gen) args(name string) string {
	spec, _ := script.Lookup(name)
	parts := []string{name}
	for _, p := range spec.Params {
		if !p.Required && g.r.IntN(5) < 3 {
			continue
		}
		if p.Required && g.r.IntN(40) == 0 {
			continue // the parser must say what is missing
		}
		parts = append(parts, g.param(name, p))
	}
	for k := g.r.IntN(3); k > 0; k-- {
		if x := g.extra(name, spec); x != "" {
			parts = append(parts, x)
		}
	}
	return strings.Join(parts, " ")
}

func (g *gen) param(cmd string, p script.Param) string {
	switch p.Kind {
	case script.Flag:
		return p.Key
	case script.BoolOr:
		return g.pick(p.Key, p.Key+"=true", p.Key+"=false")
	case script.Enum:
		if g.r.IntN(30) == 0 {
			return p.Key + "=bogus"
		}
		return p.Key + "=" + p.Values[g.r.IntN(len(p.Values))]
	case script.On:
		if cmd == "connect" {
			return "on=" + g.pick("c1", "c2", "c3")
		}
		if cmd == "connection.close" {
			return "on=" + g.pick("c1", "c2")
		}
		return "on=" + g.pick("c1.1", "c1.1", "c1.2", "c2.1", "c3.1")
	case script.Int:
		return p.Key + "=" + g.number(cmd, p)
	}
	return p.Key + "=" + g.text(cmd, p.Key)
}

// number is an integer in the parameter's range, kept small where a large
// one only makes a script slow.
func (g *gen) number(cmd string, p script.Param) string {
	if g.r.IntN(40) == 0 {
		return g.pick("-1", "x", strconv.FormatInt(p.Max+1, 10))
	}
	hi := map[string]int64{"count": 30, "size": 5000, "ms": 1500, "events": 400, "n": 40, "tag": 8, "prefetch": 5,
		"priority": 10, "schedulers": 4, "nodes": 3, "ram": 1, "link-us": 2000, "ack-every": 4, "work-us": 500,
		"memory-per-message": 3000, "prefetch-size": 0}[p.Key]
	switch p.Key {
	case "watermark":
		return g.pick("1", "20000", "1000000", "1000000000")
	case "file-size-limit":
		return g.pick("4096", "8192", "1000000")
	}
	if hi == 0 || hi > p.Max {
		hi = min(p.Max, p.Min+10)
	}
	lo := max(p.Min, 0)
	if hi < lo {
		hi = lo
	}
	return strconv.FormatInt(lo+g.r.Int64N(hi-lo+1), 10)
}

func (g *gen) text(cmd, key string) string {
	switch key {
	case "queue":
		if g.r.IntN(60) == 0 {
			return strings.Repeat("q", 250+g.r.IntN(10)) // around AMQP's 255-byte limit
		}
		return g.pick("q", "q", "q2", "pq", "dlq", "amq.q", "")
	case "exchange":
		return g.pick("", "amq.direct", "amq.fanout", "amq.topic", "amq.headers", "x", "dlx")
	case "key":
		return g.pick("q", "q2", "pq", "a.b", "#", "*.b", "k{i}")
	case "tag":
		return g.pick("c", "c2", "t")
	case "node":
		return g.pick("1", "2", "3", "rabbit@localhost", "rabbit-2@localhost", "nine")
	case "body":
		return g.pick("m{i}", "x", "hello", "")
	case "expiration":
		return g.pick("0", "50", "1000", "soon")
	case "type":
		return g.pick("direct", "fanout", "topic", "headers", "x-consistent-hash", "bogus")
	case "pattern":
		return g.pick("^q", ".*", "q2", "^pq$", "(")
	case "name":
		return g.pick("p", "p2")
	}
	return "v"
}

// extra is one unnamed argument of the kind the command takes.
func (g *gen) extra(cmd string, spec *script.Spec) string {
	switch spec.Extra {
	case script.XArgs:
		if cmd == "basic.consume" {
			return "x-priority=" + strconv.Itoa(g.r.IntN(5))
		}
		return g.pick("x-max-priority="+strconv.Itoa(g.r.IntN(11)), "x-max-length="+strconv.Itoa(g.r.IntN(4)),
			"x-message-ttl="+strconv.Itoa(g.r.IntN(300)), "x-dead-letter-exchange=dlx", "x-dead-letter-routing-key=dlq",
			"x-overflow="+g.pick("drop-head", "reject-publish", "reject-publish-dlx"), "x-single-active-consumer=true",
			"x-expires="+strconv.Itoa(1+g.r.IntN(2000)), "x-queue-mode=lazy", "x-queue-version="+g.pick("1", "2"),
			"x-queue-type="+g.pick("classic", "quorum", "stream"), "x-bogus=1")
	case script.AnyArgs:
		switch cmd {
		case "set_policy":
			return g.pick("max-length="+strconv.Itoa(g.r.IntN(4)), "message-ttl="+strconv.Itoa(g.r.IntN(300)),
				"dead-letter-exchange=dlx", "overflow=reject-publish", "queue-mode=lazy", "expires=500",
				"max-length-bytes=100", "queue-master-locator=min-masters", "bogus=1")
		case "expect":
			return g.pick("messages="+strconv.Itoa(g.r.IntN(4)), "consumers=1", "tag=1", "body=m0", "state=running")
		case "exchange.declare":
			return g.pick("alternate-exchange=x", "x-bogus=1")
		}
		return g.pick("x-match="+g.pick("any", "all"), "a=1", "b=two")
	case script.HeaderArgs:
		return g.pick("header.a=1", "header.b=two")
	case script.Words:
		if len(spec.WordSet) > 0 {
			return spec.WordSet[g.r.IntN(len(spec.WordSet))]
		}
	}
	return ""
}

// exec runs one line, turning a panic into a message with its stack.
func exec(s *Sim, line string) (out []string, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = fmt.Sprintf("%q panicked: %v\n%s", line, r, debug.Stack())
		}
	}()
	return s.runLine(line), ""
}

func refused(out []string) bool { return len(out) == 1 && strings.HasPrefix(out[0], "error: ") }

// checkScript runs lines straight, then again with seeks, and returns
// what went wrong ("" when nothing did).
func checkScript(tb testing.TB, seed uint64, lines []string) string {
	r := rand.New(rand.NewPCG(seed, 0x5ee5))
	// straight, checking each refusal
	a := New(Options{Record: true})
	outs := make([][]string, len(lines))
	states := make([]string, len(lines))
	seekStates := make([]string, len(lines))
	before := wholeState(tb, a)
	for i, line := range lines {
		out, p := exec(a, line)
		if p != "" {
			return fmt.Sprintf("line %d: %s", i+1, p)
		}
		outs[i] = out
		states[i] = wholeState(tb, a)
		seekStates[i] = seekState(tb, a)
		if refused(out) && states[i] != before {
			return fmt.Sprintf("line %d %q was refused (%s) but changed the simulation:\n%s", i+1, line, out[0], diffState(before, states[i]))
		}
		before = states[i]
	}
	// again, seeking back and forth after some lines, and trying a line
	// at the earlier event: refused, it must change nothing there either
	b := New(Options{Record: true})
	for i, line := range lines {
		out, p := exec(b, line)
		if p != "" {
			return fmt.Sprintf("line %d (with seeks): %s", i+1, p)
		}
		if strings.Join(out, "\n") != strings.Join(outs[i], "\n") && !showsWindow(line) {
			return fmt.Sprintf("line %d %q printed differently after seeks:\nstraight   %q\nwith seeks %q", i+1, line, outs[i], out)
		}
		if st := seekState(tb, b); st != seekStates[i] {
			return fmt.Sprintf("line %d %q: the state differs after seeks:\n%s", i+1, line, diffState(seekStates[i], st))
		}
		if r.IntN(3) > 0 {
			continue
		}
		end := b.Furthest()
		k := r.Int64N(end + 1)
		if err := b.SeekEvent(k); err != nil {
			return fmt.Sprintf("after line %d: seek to %d of %d: %v", i+1, k, end, err)
		}
		if r.IntN(2) == 0 {
			probe := lines[r.IntN(len(lines))]
			at := wholeState(tb, b)
			out, p := exec(b, probe)
			if p != "" {
				return fmt.Sprintf("after line %d, at event %d: %s", i+1, k, p)
			}
			if !refused(out) {
				// it ran: this is another history; start this one again
				b = replay(lines[:i+1])
				continue
			}
			if st := wholeState(tb, b); st != at {
				return fmt.Sprintf("after line %d, at event %d of %d: %q was refused (%s) but changed the simulation:\n%s", i+1, k, end, probe, out[0], diffState(at, st))
			}
		}
		if err := b.SeekEvent(end); err != nil {
			return fmt.Sprintf("after line %d: seek back to the end %d: %v", i+1, end, err)
		}
		if st := seekState(tb, b); st != seekStates[i] {
			return fmt.Sprintf("after line %d: a seek to event %d and back to %d changed the state:\n%s", i+1, k, end, diffState(seekStates[i], st))
		}
	}
	return ""
}

// showsWindow says a line shows one of the windowViews, which a seek does
// not bring back.
func showsWindow(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != "show" {
		return false
	}
	for _, w := range f[1:] {
		if slices.Contains(windowViews, w) {
			return true
		}
	}
	return false
}

func replay(lines []string) *Sim {
	s := New(Options{Record: true})
	for _, l := range lines {
		s.runLine(l)
	}
	return s
}

// diffState shows the lines only one of two states has.
func diffState(want, got string) string {
	count := map[string]int{}
	for _, l := range strings.Split(got, "\n") {
		count[l]++
	}
	var b strings.Builder
	for _, l := range strings.Split(want, "\n") {
		if count[l] > 0 {
			count[l]--
			continue
		}
		fmt.Fprintf(&b, "- %s\n", clip(l))
	}
	for _, l := range strings.Split(got, "\n") {
		if count[l] > 0 {
			count[l]--
			fmt.Fprintf(&b, "+ %s\n", clip(l))
		}
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
