package engine

import (
	"fmt"
	"strings"
	"testing"
)

// filesScript publishes to a durable version 2 queue, with confirms, three
// messages small enough for its .qs and two the message store keeps.
var filesScript = []string{
	"queue.declare queue=files durable x-queue-version=2",
	"confirm.select",
	"basic.publish key=files size=100 count=3 persistent",
	"basic.publish key=files size=10000 count=2 persistent",
}

// getsAndAcks then takes four of those messages and acks the first and
// the fourth: one in the .qs, one in the message store.
var getsAndAcks = []string{
	"basic.get queue=files on=c1.2",
	"basic.get queue=files on=c1.2",
	"basic.get queue=files on=c1.2",
	"basic.get queue=files on=c1.2",
	"basic.ack tag=1 on=c1.2",
	"basic.ack tag=4 on=c1.2",
}

// TestFileViewEntries checks what the widget's Files view says of each file
// of a version 2 queue: its entries, how many are live, and their marks
// (lower case until synced). Small messages go to the queue's .qs, large
// ones to the message store, which is fsynced before the confirms; the
// index and .qs are only handed to the OS. An ack zeroes the index slot at
// the queue's idle flush, and the message store entry of a message no
// queue references any more is dead.
func TestFileViewEntries(t *testing.T) {
	s := New(Options{})
	mustExec(t, s, filesScript...)
	check := func(when string, want map[string]string) {
		t.Helper()
		got := map[string]string{}
		for _, f := range s.Snapshot().Files {
			name := f.Path
			if strings.HasPrefix(name, "queues/") {
				name = name[strings.LastIndexByte(name, '/')+1:]
			}
			got[name] = fmt.Sprintf("%d %d %s", f.Entries, f.Live, f.Marks)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: %s: entries, live, marks = %q, want %q", when, k, got[k], w)
			}
		}
	}
	check("published", map[string]string{
		"0.qi":                       "5 5 lllll",
		"0.qs":                       "3 3 lll",
		"msg_store_persistent/0.rdq": "2 2 LL",
		"msg_store_transient/0.rdq":  "0 0 ",
	})
	mustExec(t, s, getsAndAcks...)
	// the acks wait in the index's buffer: the files still read the
	// entries present, marked acked, not yet written
	check("acked, not flushed", map[string]string{
		"0.qi": "5 5 allal",
		"0.qs": "3 3 all",
	})
	mustExec(t, s, "wait ms=1500")
	check("two acked", map[string]string{
		"0.qi":                       "5 3 dlldl",
		"0.qs":                       "3 2 dll",
		"msg_store_persistent/0.rdq": "2 1 DL",
	})
}
