package engine

import (
	"strconv"
	"strings"
	"testing"
)

// storeLoad is ten publishers that keep 3.10's shared store busy for
// about 30 ms: its mailbox empties once, at about 3 ms, and then not until
// the load is over. The file size limit is raised so that the store does
// not roll its file, which would sync it too.
func storeLoad() string {
	var b strings.Builder
	b.WriteString("set schedulers=16 file-size-limit=33554432\n")
	for i := 1; i <= 10; i++ {
		n := strconv.Itoa(i)
		b.WriteString("submit queue.declare queue=q" + n + " durable x-queue-version=2 on=c" + n + ".1\n")
		b.WriteString("submit confirm.select on=c" + n + ".1\n")
		b.WriteString("submit basic.publish key=q" + n + " size=5000 count=400 persistent on=c" + n + ".1\n")
	}
	return b.String()
}

// storeSync is what the shared store's 0.rdq and mailbox show now.
func storeSync(t *testing.T, s *Sim) (size, synced int64, mailbox int) {
	t.Helper()
	for _, f := range s.cluster.First().FileViews() {
		if strings.HasSuffix(f.Path, "msg_store_persistent/0.rdq") {
			size, synced = f.Size, f.Synced
		}
	}
	for _, p := range s.Snapshot().Processes {
		if p.Name == "msg_store_persistent" {
			mailbox = p.Mailbox
		}
	}
	return size, synced, mailbox
}

// TestStoreSyncTimerJumpsItsMailbox: in 3.10 a shared store whose mailbox
// never empties still syncs every 25 ms (SYNC_INTERVAL), since its sync
// timer jumps the writes waiting (prioritise_info gives sync 8). Under ten
// publishers the store syncs at about 3 ms, when its mailbox is empty for
// a moment, then holds hundreds of writes; 25 ms later, writes still
// waiting, the timer syncs 0.rdq.
func TestStoreSyncTimerJumpsItsMailbox(t *testing.T) {
	s := runScript(t, storeLoad()+"run ms=20")
	size, first, mailbox := storeSync(t, s)
	if first == 0 || first >= size || mailbox < 100 {
		t.Fatalf("at 20 ms: 0.rdq size=%d synced=%d, store mailbox=%d; want a sync behind the size and a long mailbox", size, first, mailbox)
	}
	// step until the store syncs again: its mailbox is not empty then
	for s.rt.Now() < 40_000 {
		s.runLine("run events=1")
		size, synced, mailbox := storeSync(t, s)
		if synced == first {
			continue
		}
		if mailbox == 0 {
			t.Fatalf("the store synced again at %s only once its mailbox was empty (synced=%d of %d): the timer did not jump the writes", formatTime(s.rt.Now()), synced, size)
		}
		if now := s.rt.Now(); now < 25_000 || now > 30_000 {
			t.Errorf("the timer synced at %s, want 25 ms after the sync at about 3 ms", formatTime(now))
		}
		return
	}
	t.Fatalf("the store never synced again after synced=%d", first)
}
