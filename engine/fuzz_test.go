package engine

import (
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(strings.Join(scenarioCommands(string(data)), "\n"))
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

// scenarioCommands returns the command lines of a datadriven scenario
// file: each block's lines before its ----, without comments; the
// expected output after the ---- runs to the blank line that ends the
// block.
func scenarioCommands(file string) []string {
	var cmds []string
	output := false
	for _, l := range strings.Split(file, "\n") {
		switch {
		case l == "----":
			output = true
		case strings.TrimSpace(l) == "":
			output = false
		case output || strings.HasPrefix(l, "#"):
		default:
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// TestSeedsKeepEveryCommand: the fuzz seeds are the scenarios' commands,
// confirm.select and connection.close among them, and none of their
// expected output.
func TestSeedsKeepEveryCommand(t *testing.T) {
	got := scenarioCommands("# a comment\nconfirm.select\nbasic.publish key=q\n----\nc1.1 confirm-ack seq=1\n\nconnection.close on=c1\n----\nc1 closed\n")
	want := []string{"confirm.select", "basic.publish key=q", "connection.close on=c1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("commands %q, want %q", got, want)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "conformance", "*.txt"))
	confirms := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range scenarioCommands(string(data)) {
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
