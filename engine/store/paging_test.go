package store

import (
	"bytes"
	"path"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// PageOut writes a message kept in memory to disk as 3.10 pages it: a
// small body into the index (embedded in v1, the .qs file in v2), a large
// one into msg_store_transient; the ack removes it again.
func TestPageOut(t *testing.T) {
	for _, c := range []struct {
		name     string
		opts     QueueOptions
		size     int
		wantFile string // a file that must hold the body
	}{
		{"v1 small, non-durable", QueueOptions{Version: 1}, 100, "0.idx|journal.jif"},
		{"v1 large, non-durable", QueueOptions{Version: 1}, 5000, "msg_store_transient"},
		{"v2 small, non-durable", QueueOptions{Version: 2}, 100, "0.qs"},
		{"v1 small transient in a durable queue", QueueOptions{Version: 1, Durable: true}, 100, "0.idx|journal.jif"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := vfs.NewMemFS()
			v, _, err := OpenVHost(fsys, ".", Profile310(), nil)
			if err != nil {
				t.Fatal(err)
			}
			q, _, err := v.OpenQueue("paged", c.opts)
			if err != nil {
				t.Fatal(err)
			}
			b := body("paged-", 'p', c.size)
			pm := publishMsg(t, "paged", format.Properties{}, b, testID(1), false)
			if c.opts.Durable {
				// a transient message in a durable queue: known, in memory
				res, err := q.Publish(7, pm)
				if err != nil || res.Placement != InMemory {
					t.Fatalf("publish: %v, placement %v", err, res.Placement)
				}
			}
			res, err := q.PageOut(7, pm)
			if err != nil {
				t.Fatal(err)
			}
			deliver(t, v, res.Calls)
			if _, err := q.Flush(); err != nil {
				t.Fatal(err)
			}
			if c.wantFile == "msg_store_transient" {
				if got, _, err := v.Store(false).Read(testID(1)); err != nil || !bytes.Contains(got, b) {
					t.Fatalf("msg_store_transient does not hold the paged body: %v", err)
				}
			} else if !filesHold(t, fsys, q, c.wantFile, b) {
				t.Fatalf("no file among %s holds the paged body", c.wantFile)
			}
			// paging it again changes nothing
			again, err := q.PageOut(7, pm)
			if err != nil || len(again.Calls) != 0 || again.IO != (IO{}) {
				t.Fatalf("second PageOut: %v, %+v", err, again)
			}
			if q.Unacked()[0] != 7 {
				t.Fatalf("unacked %v, want [7]", q.Unacked())
			}
			ack, err := q.Ack([]uint64{7})
			if err != nil {
				t.Fatal(err)
			}
			deliver(t, v, ack.Calls)
			if len(q.Unacked()) != 0 {
				t.Fatalf("unacked after ack: %v", q.Unacked())
			}
			if v.Store(false).Contains(testID(1)) {
				t.Fatal("msg_store_transient still holds the message after its ack")
			}
		})
	}
}

func filesHold(t *testing.T, fsys vfs.FS, q *QueueFiles, names string, b []byte) bool {
	t.Helper()
	for _, name := range strings.Split(names, "|") {
		data, err := readAll(fsys, path.Join(q.Dir(), name))
		if err == nil && bytes.Contains(data, b) {
			return true
		}
	}
	return false
}
