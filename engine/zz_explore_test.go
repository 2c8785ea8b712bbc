package engine

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

func TestZZExplore(t *testing.T) {
	s := New(Options{Record: true})
	for _, l := range []string{"queue.declare queue=q x-max-priority=3", "basic.qos prefetch=10 on=c2.1", "basic.consume queue=q tag=c on=c2.1", "basic.publish key=q body=m{i} count=30 priority=2", "bogus x=1", "basic.ack tag=99"} {
		fmt.Println(">", l, s.ExecLine(l))
	}
	s.Submit("basic.publish key=q body=m{i} count=5")
	s.Step(7)
	b, _ := json.MarshalIndent(s.Snapshot(), "", " ")
	fmt.Println(string(b))
	for _, e := range s.Events()[len(s.Events())-5:] {
		fmt.Println(s.Describe(&e))
	}
	fmt.Println(s.Transcript()[:3])
	s2 := New(Options{Record: true})
	s2.ExecLine("queue.declare queue=b")
	s2.ExecLine("basic.qos prefetch=200 on=c2.1")
	s2.ExecLine("basic.consume queue=b tag=c on=c2.1 ack-every=1")
	t0 := time.Now()
	s2.ExecLine("basic.publish key=b size=16 count=12000")
	fmt.Println("events", s2.Furthest(), time.Since(t0))
	t0 = time.Now()
	s2.SeekEvent(s2.Furthest() / 2)
	fmt.Println("seek", time.Since(t0))
	t0 = time.Now()
	s2.SeekEvent(s2.Furthest())
	fmt.Println("seek end", time.Since(t0), len(s2.Events()), len(s2.Transcript()))
}
