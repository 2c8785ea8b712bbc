package store

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"warren/engine/store/format"
)

// TestConfirmsEachOnce publishes persistent messages with confirms, small
// ones (embedded in the v1 index, or in the v2 queue store) and large ones
// (in the shared store), and acks, syncs, flushes and syncs the stores in
// a random order: every message is confirmed once, and never before its
// index entry was synced, unless it was acked before its body was written
// (the store then confirms it at once, as msg_store does for a write it
// never made).
func TestConfirmsEachOnce(t *testing.T) {
	for _, version := range []int{1, 2} {
		for seed := uint64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("v%d/seed%d", version, seed), func(t *testing.T) {
				v, q := durableQueue(t, "q", version)
				r := rand.New(rand.NewPCG(seed, 7))
				confirmed := map[format.MsgID]int{}
				synced := map[format.MsgID]bool{} // published before a queue sync or flush
				var published []format.MsgID
				var unacked []uint64
				take := func(ids []format.MsgID, what string) {
					t.Helper()
					for _, id := range ids {
						if !synced[id] && what != "an ack's remove" {
							t.Fatalf("%x confirmed by %s before any sync of its index", id[:4], what)
						}
						confirmed[id]++
					}
				}
				queueSynced := func(res Result, err error, what string) {
					t.Helper()
					if err != nil {
						t.Fatal(err)
					}
					for _, id := range published {
						synced[id] = true
					}
					take(res.Confirmed, what)
					take(deliver(t, v, res.Calls)["q"], what)
				}
				counts := func(when int) {
					t.Helper()
					unindexed, due := 0, 0
					for _, p := range q.pending {
						if !p.index {
							unindexed++
						}
						if p.done() {
							due++
						}
					}
					if unindexed != q.unindexed || due != q.due {
						t.Fatalf("after step %d: %d unindexed and %d due counted, %d and %d there", when, q.unindexed, q.due, unindexed, due)
					}
				}
				for i := range 3000 {
					counts(i)
					switch k := r.IntN(100); {
					case k < 70:
						size := 200
						if r.IntN(3) == 0 {
							size = 6000
						}
						m := publishMsg(t, "q", persistentProps, body("m-", 'x', size), testID(i+1), true)
						res, err := q.Publish(uint64(i), m)
						if err != nil {
							t.Fatal(err)
						}
						published = append(published, m.ID)
						unacked = append(unacked, uint64(i))
						take(res.Confirmed, "its publish")
						take(deliver(t, v, res.Calls)["q"], "the store's write")
					case k < 80:
						n := r.IntN(len(unacked) + 1)
						res, err := q.Ack(unacked[:n])
						if err != nil {
							t.Fatal(err)
						}
						unacked = unacked[n:]
						take(res.Confirmed, "an ack")
						take(deliver(t, v, res.Calls)["q"], "an ack's remove")
					case k < 88:
						res, err := q.Sync()
						queueSynced(res, err, "a sync")
					case k < 92:
						res, err := q.Flush()
						queueSynced(res, err, "a flush")
					default:
						byQueue, _, err := v.SyncStores()
						if err != nil {
							t.Fatal(err)
						}
						take(byQueue["q"], "a store sync")
					}
				}
				res, err := q.Sync()
				queueSynced(res, err, "the last sync")
				byQueue, _, err := v.SyncStores()
				if err != nil {
					t.Fatal(err)
				}
				take(byQueue["q"], "the last store sync")
				if q.NeedsSync() != NoSync && q.NeedsSync() != SyncIdle {
					t.Errorf("after the last syncs the queue still wants a sync for confirms")
				}
				for _, id := range published {
					if confirmed[id] != 1 {
						t.Fatalf("%x confirmed %d times, want once", id[:4], confirmed[id])
					}
				}
			})
		}
	}
}

// BenchmarkConfirmsWaiting publishes persistent messages with confirms
// while thousands wait for the queue's next sync, as a publisher faster
// than the 200 ms sync timer keeps them: each publish, ack and look at
// what is due costs the same however many wait.
func BenchmarkConfirmsWaiting(b *testing.B) {
	for _, version := range []int{1, 2} {
		b.Run(fmt.Sprintf("v%d", version), func(b *testing.B) {
			_, q := durableQueue(b, "bench", version)
			f := newMsgFactory(b, 100)
			const waiting = 8192
			confirmed := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := q.Publish(uint64(i), f.next())
				if err != nil {
					b.Fatal(err)
				}
				confirmed += len(res.Confirmed)
				q.NeedsSync()
				if i%waiting == waiting-1 || i == b.N-1 {
					sres, err := q.Sync()
					if err != nil {
						b.Fatal(err)
					}
					confirmed += len(sres.Confirmed)
				}
			}
			b.StopTimer()
			if confirmed != b.N {
				b.Fatalf("%d confirms for %d messages", confirmed, b.N)
			}
		})
	}
}
