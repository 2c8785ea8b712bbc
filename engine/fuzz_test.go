package engine

import (
	"hash/fnv"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"warren/engine/scenario"
)

// bigNumber finds numbers large enough to make one fuzz input slow (count=,
// ms=, size=, events=).
var bigNumber = regexp.MustCompile(`[0-9]{5,}|=[2-9][0-9]{3}\b`)

// FuzzExecLines runs scripts of console lines and checks what any input
// must keep (checkScript, as the random tester does): nothing panics; a
// line that is refused (one `error:` line) leaves the whole simulation
// exactly as it was (exchanges, bindings, policies, files, the clock, the
// metrics samples, the timeline's end, the trace), even right after a
// seek back; and seeking back and forth changes nothing. The seeds are
// the conformance corpus's scenarios; go test runs them, natively and
// under wasm.
func FuzzExecLines(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	for _, name := range files {
		f.Add(strings.Join(seedCommands(readCaseFile(f, name)), "\n"))
	}
	f.Add("set schedulers=2\nsubmit basic.publish key=q body=x count=3\nstep n=2\nset schedulers=4\nset_policy name=p pattern=( max-length=1")
	// refusals that changed the simulation before the command table: a
	// restart refused in a cluster, stop_app refused by the browser build
	f.Add("cluster nodes=2\nqueue.declare queue=q\nbasic.publish key=q count=3\nrestart kind=clean\nbasic.get queue=q")
	f.Add("cluster nodes=2\nconnect on=c2 node=2\nqueue.declare queue=q durable on=c2.1\nsubmit basic.publish key=q count=5 on=c2.1\nstop_app node=2\nstart_app node=2\nrestart")
	f.Fuzz(func(t *testing.T, text string) {
		var lines []string
		for _, line := range strings.Split(text, "\n") {
			if !bigNumber.MatchString(line) && len(lines) < 40 {
				lines = append(lines, line)
			}
		}
		h := fnv.New64a()
		h.Write([]byte(text))
		if msg := checkScript(t, h.Sum64(), lines); msg != "" {
			t.Fatal(msg)
		}
	})
}

// seedCommands returns the command lines of a scenario file, in order,
// without its comments and expected output.
func seedCommands(f *scenario.File) []string {
	var cmds []string
	for _, s := range f.Steps() {
		cmds = append(cmds, s.Command)
	}
	return cmds
}

// TestSeedsKeepEveryCommand: the fuzz seeds are the scenarios' commands,
// confirm.select and connection.close among them, and none of their
// expected output.
func TestSeedsKeepEveryCommand(t *testing.T) {
	f, err := scenario.Parse("seeds.txt", "# a comment\nconfirm.select\nbasic.publish key=q\n----\nc1.1 confirm-ack seq=1\n\nconnection.close on=c1\n----\nc1 closed\n")
	if err != nil {
		t.Fatal(err)
	}
	got := seedCommands(f)
	want := []string{"confirm.select", "basic.publish key=q", "connection.close on=c1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("commands %q, want %q", got, want)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	confirms := 0
	for _, name := range files {
		for _, l := range seedCommands(readCaseFile(t, name)) {
			if strings.HasPrefix(l, "confirm.select") {
				confirms++
			}
			if strings.HasPrefix(l, "c1.") || strings.HasPrefix(l, "goal ") {
				t.Fatalf("%s: an output line among the seeds: %q", name, l)
			}
		}
	}
	if confirms == 0 {
		t.Fatal("no confirm.select among the seeds")
	}
}
