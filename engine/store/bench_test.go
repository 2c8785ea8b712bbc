package store

import (
	"bytes"
	"fmt"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// msgFactory makes persistent messages of one size with fresh ids, by
// patching the id into one encoded term.
type msgFactory struct {
	pm    PublishedMsg
	idAt  int
	count int
}

func newMsgFactory(tb testing.TB, size int) *msgFactory {
	pm := publishMsg(tb, "bench", persistentProps, body("bench-", 'b', size), testID(0), true)
	id := testID(0)
	return &msgFactory{pm: pm, idAt: bytes.LastIndex(pm.Term, id[:])}
}

func (f *msgFactory) next() PublishedMsg {
	f.count++
	m := f.pm
	m.ID = testID(f.count)
	m.Term = append([]byte(nil), f.pm.Term...)
	copy(m.Term[f.idAt:], m.ID[:])
	return m
}

// BenchmarkPersistentPublishConfirmAck publishes persistent messages with
// confirms to a durable queue on a MemFS: the queue and store timers run
// every 64 messages (sync, confirm), then the confirmed messages are acked;
// the idle flush and the GC run every 1024 messages.
func BenchmarkPersistentPublishConfirmAck(b *testing.B) {
	for _, version := range []int{1, 2} {
		for _, size := range []int{100, 10000} {
			b.Run(fmt.Sprintf("v%d/%dB", version, size), func(b *testing.B) {
				v, q := durableQueue(b, "bench", version)
				f := newMsgFactory(b, size)
				var unacked []uint64
				confirmed := 0
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					res, err := q.Publish(uint64(i), f.next())
					if err != nil {
						b.Fatal(err)
					}
					if _, _, err := v.Deliver(res.Calls); err != nil {
						b.Fatal(err)
					}
					unacked = append(unacked, uint64(i))
					if i%64 != 63 && i != b.N-1 {
						continue
					}
					sres, err := q.Sync()
					if err != nil {
						b.Fatal(err)
					}
					confirmed += len(sres.Confirmed)
					byQueue, _, err := v.SyncStores()
					if err != nil {
						b.Fatal(err)
					}
					confirmed += len(byQueue["bench"])
					ares, err := q.Ack(unacked)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, err := v.Deliver(ares.Calls); err != nil {
						b.Fatal(err)
					}
					unacked = unacked[:0]
					if i%1024 == 1023 {
						if _, err := q.Flush(); err != nil {
							b.Fatal(err)
						}
						if _, err := v.Store(true).RunGC(); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.StopTimer()
				if confirmed != b.N {
					b.Fatalf("%d confirms for %d messages", confirmed, b.N)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			})
		}
	}
}

// BenchmarkCompaction fills 8 files of 1 MiB with 10 KB messages, acks
// three in four, and measures the GC; it reports the time per MB the GC
// copied or moved.
func BenchmarkCompaction(b *testing.B) {
	for _, p := range []Profile{Profile310(), Profile313()} {
		b.Run(p.Version, func(b *testing.B) {
			var moved int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				p.FileSizeLimit = 1 << 20
				fsys := vfs.NewMemFS()
				fsys.SetTracing(false)
				v, _, err := OpenVHost(fsys, ".", p, nil)
				if err != nil {
					b.Fatal(err)
				}
				st := v.Store(true)
				st.RegisterClient("c", false)
				f := newMsgFactory(b, 10000)
				var ids []format.MsgID
				for len(st.Files()) < 9 {
					m := f.next()
					if _, err := st.Write("c", m.ID, m.Term); err != nil {
						b.Fatal(err)
					}
					ids = append(ids, m.ID)
				}
				var gone []format.MsgID
				for k, id := range ids {
					if k%4 != 1 {
						gone = append(gone, id)
					}
				}
				if _, err := st.Remove("c", gone); err != nil {
					b.Fatal(err)
				}
				st.ScheduleCompaction()
				b.StartTimer()
				for {
					rep, err := st.GCStep()
					if err != nil {
						b.Fatal(err)
					}
					if rep.Step == "idle" {
						break
					}
					if rep.Step == "copy" || rep.Step == "move" {
						moved += rep.IO.BytesWritten
					}
				}
			}
			if moved == 0 {
				b.Fatal("the GC moved nothing")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(float64(moved)/1e6), "ns/MB")
			b.ReportMetric(float64(moved)/1e6/float64(b.N), "MB/op")
		})
	}
}
