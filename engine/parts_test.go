package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSimIsFourParts: a Sim is its state, history, running and settings,
// nothing beside them, so that a field added to it lands in a part that a
// seek treats as a whole (the state copied, the history shared, running
// started afresh, the settings kept) and no list of fields needs it named.
func TestSimIsFourParts(t *testing.T) {
	var got []string
	st := reflect.TypeFor[Sim]()
	for i := 0; i < st.NumField(); i++ {
		f := st.Field(i)
		if !f.Anonymous {
			t.Errorf("Sim.%s is a field of its own: put it in state, history, running or settings", f.Name)
		}
		got = append(got, f.Name)
	}
	if want := []string{"state", "history", "running", "settings"}; !slices.Equal(got, want) {
		t.Errorf("Sim holds %v, want %v", got, want)
	}
}

// TestOnlyLinkedFieldsStayOutOfTheState: the state's fields tagged
// clone:"-" (which a checkpoint does not copy) are the ones link joins
// again after a seek, and the client's command buffers, which a seek
// starts empty. A field tagged for any other reason would be lost by a
// seek without a word.
func TestOnlyLinkedFieldsStayOutOfTheState(t *testing.T) {
	var tagged []string
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(ty.Elem())
		case reflect.Map:
			walk(ty.Key())
			walk(ty.Elem())
		case reflect.Struct:
			for i := 0; i < ty.NumField(); i++ {
				f := ty.Field(i)
				if f.Tag.Get("clone") == "-" {
					if f.Tag != `clone:"-"` {
						t.Errorf("%s.%s is tagged %s: clone honours clone:\"-\" only as the whole tag", ty, f.Name, f.Tag)
					}
					tagged = append(tagged, ty.String()+"."+f.Name)
					continue
				}
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeFor[state]())
	slices.Sort(tagged)
	want := []string{
		"beam.Runtime.Log", "beam.Runtime.Observe", "engine.client.discard", "engine.client.events",
		"engine.client.lines", "engine.client.record", "engine.client.spare",
	}
	if !slices.Equal(tagged, want) {
		t.Errorf("fields tagged clone:\"-\" under the state:\n%s\nwant\n%s", strings.Join(tagged, "\n"), strings.Join(want, "\n"))
	}
}

// TestCopiedStateRunsOn: a copy of the state, put in place as a seek puts
// it, is joined to the history again: the next command's trace lines go
// to the same transcript and its events to the same log.
func TestCopiedStateRunsOn(t *testing.T) {
	s := New(Options{Record: true})
	s.runLine("queue.declare queue=q")
	st, _, err := s.copyState(0)
	if err != nil {
		t.Fatal(err)
	}
	if st.client.lines != nil || st.rt.Log != nil {
		t.Fatalf("the copy holds the history: lines %p log %p", st.client.lines, st.rt.Log)
	}
	s.replaceState(*st)
	if s.client.lines != s.transcript || s.rt.Log != s.log {
		t.Fatalf("after replaceState, the state is not joined to the history")
	}
	before, lines := s.log.Len(), s.transcript.upTo(max64)
	if out := s.runLine("queue.declare queue=r"); len(out) == 0 {
		t.Fatalf("queue.declare printed nothing")
	}
	if s.log.Len() <= before {
		t.Errorf("the event log did not grow after the copy was put in place: %d events, %d before", s.log.Len(), before)
	}
	if n := s.transcript.upTo(max64); n <= lines {
		t.Errorf("the transcript did not grow after the copy was put in place: %d lines, %d before", n, lines)
	}
}
