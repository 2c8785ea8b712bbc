package store

import (
	"bytes"
	"fmt"
	"path"
	"strings"
	"testing"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// TestCrashRecovery runs seeded scenarios (publishes, confirms, acks,
// syncs, idle flushes, file rolls, GC, clean restarts) and, for every file
// operation of each, reruns the scenario with a crash right before that
// operation and, for a write, with crashes inside it (a torn write: its
// first byte, half of it, all but its last byte, or its whole pages are
// in the file; see tearPoints), then recovers the vhost and checks what
// came back.
//
// After a process crash (the kernel keeps every write):
//   - every message confirmed to its publisher and never acked comes back;
//   - no message whose ack reached the OS (a queue Sync, Flush or clean
//     shutdown after the ack) comes back;
//   - every message that comes back was published persistent to that
//     queue, with the same bytes, once.
//
// After a power loss (only what was fsynced survives):
//   - the last rule above still holds;
//   - 3.10: the .rdq entry of every confirmed, never acked message whose
//     body went to the shared store is on disk (the store fsyncs before
//     confirming), whatever the index says;
//   - 3.10, v1 index: every confirmed, never acked message comes back (its
//     journal record was fsynced, or its segment fsynced by the flush); no
//     message whose ack record was fsynced in the journal comes back;
//   - v2 index: its entries and .qs bodies are only handed to the OS before
//     confirms (fsync happens at shutdown only), so a power loss may lose
//     confirmed messages and bring acked ones back, but exactly those: a
//     message whose index entry and body were both synced comes back, and
//     one whose ack was synced does not (crash_exact_test.go); a clean
//     shutdown syncs every live entry. The allowed losses are counted.
//
// A torn write needs no rule of its own where RabbitMQ reads past it: a
// torn journal record ends the journal (parse_journal_entries stops at
// the first record it cannot match, or one of zeros), and
// rabbit_msg_file:scan stops at a .rdq entry cut short (one whose
// write-OK byte is not 255 is skipped). A v1
// segment torn inside a record is another matter: RabbitMQ 3.10.8 cannot
// read it (tornSegment); what such a tear costs is counted, not judged.
//
// Beside the crashes, every run holds the store to what its fsyncs promise
// as it makes them (crash_promises_test.go): a rolled 3.10 file is durable
// whole, a 3.13 compaction's moved messages are durable before the index
// points at them, a 3.10 merge's copy is durable before the destination
// is cut and the destination once the merge is done, and a v2 queue's
// .qs segment is durable once the queue stops. A missing fsync that no
// crash point turns into a lost message still fails the test there: the
// mutations of testdata/mutations each fail it (go run ./scripts/mutate).
//
// One loss after a process crash is allowed, because RabbitMQ 3.10 has it
// too (see gcWindow): a crash while a merge has extended its destination
// with zeros and not yet copied the destination's own live messages back
// from the .rdt. The test counts such losses.
func TestCrashRecovery(t *testing.T) {
	scenarios := crashScenarios()
	if testing.Short() {
		scenarios = shortScenarios(scenarios)
	}
	var points, runs, failures int
	stats := map[string]int{}
	var first []string
	for _, sc := range scenarios {
		n, r, v, f := crashAtEveryPoint(t, sc, stats, mutation{})
		points, runs, failures = points+n, runs+r, failures+v
		first = append(first, f...)
	}
	t.Logf("%d scenarios x injection points = %d points, %d runs (process crash and power loss at each, before the operation and, for a write, inside it at several bytes), %d violations", len(scenarios), points, runs, failures)
	t.Logf("power loss, v2 index (allowed: entry or body never synced): %d confirmed messages lost, %d acked messages back", stats["v2-lost"], stats["v2-back"])
	t.Logf("power loss (allowed): %d confirmed messages of v1 queues lost whose bodies were in a 3.13 store not fsynced", stats["other-lost"])
	t.Logf("process crash inside the 3.10 merge window (allowed, RabbitMQ loses them too): %d confirmed messages lost", stats["gc-window"])
	t.Logf("torn writes: %d runs crashed inside a write (after its first byte, half, all but one byte, its whole pages)", stats["torn"])
	t.Logf("process crash leaving a v1 segment torn inside a record (allowed, RabbitMQ 3.10.8 cannot read it either): %d runs lost messages", stats["torn-idx"])
	if len(first) > 20 {
		first = first[:20]
	}
	for _, f := range first {
		t.Error(f)
	}
}

// crashAtEveryPoint runs sc once to count its file operations, then once
// per operation with a process crash and a power loss right before it
// and, when it is a write, halfway through it, on a disk with the given
// faults. It returns the points, the runs, the violations and the first
// few of them.
func crashAtEveryPoint(t *testing.T, sc crashScenario, stats map[string]int, m mutation) (points, runs, failures int, first []string) {
	newDriver := func(t testing.TB, sc crashScenario, budget int, torn int) *driver {
		d := newDriver(t, sc, budget, torn, m.faults...)
		d.cfs.noSync = m.noSync
		return d
	}
	full := newDriver(t, sc, -1, 0)
	if err := full.run(); err != nil {
		t.Fatalf("%s: %v", sc.name, err)
	}
	total := full.cfs.count
	for k := 0; k <= total; k++ {
		for _, torn := range append([]int{0}, full.cfs.tears[k]...) {
			for _, power := range []bool{false, true} {
				d := newDriver(t, sc, k, torn)
				if err := d.run(); err != nil && err != errStop {
					t.Fatalf("%s crash at %d: %v", sc.name, k, err)
				}
				runs++
				if torn > 0 {
					stats["torn"]++
				}
				vs := verifyCrash(d, power, stats)
				if d.cfs.tornIdx && !power && len(vs) > 0 {
					// RabbitMQ cannot read the segment either (tornSegment)
					stats["torn-idx"]++
					continue
				}
				for _, v := range vs {
					failures++
					if strings.Contains(v, "v2 queue") {
						stats["v2-violations"]++
					}
					if len(first) < 20 {
						mode := "process crash"
						if power {
							mode = "power loss"
						}
						where := "before"
						if torn > 0 {
							where = fmt.Sprintf("%d bytes into", torn)
						}
						first = append(first, fmt.Sprintf("%s, %s %s file operation %d: %s", sc.name, mode, where, k+1, v))
					}
				}
			}
		}
	}
	t.Logf("%-24s %4d file operations (%d writes across a page), %4d steps; GC steps %v", sc.name, total, len(full.cfs.tears), sc.steps, full.gcOps)
	return total + 1, runs, failures, first
}

// mutation is a broken store or disk the crash test must catch.
type mutation struct {
	noSync bool        // the store's fsync calls taken out
	faults []vfs.Fault // faults of the disk
}

// TestCrashTestCatchesMissingSyncs breaks durability two ways and checks
// that the crash test reports it, in v2 queues and on 3.13 too: with the
// store's fsyncs taken out (a clean shutdown leaves live v2 entries not
// durable, the 3.10 store confirms bodies it never fsynced, v1 journals
// lose confirmed messages), and with a disk that acknowledges syncs and
// loses them (messages whose entries and bodies were synced are gone).
// TestCrashRecovery is the same test with nothing broken: no violation.
func TestCrashTestCatchesMissingSyncs(t *testing.T) {
	picked := map[string]bool{"3.13-compaction": true, "small-segments": true}
	for _, m := range []struct {
		name string
		mutation
	}{
		{"fsync taken out of the store", mutation{noSync: true}},
		{"a disk that loses its syncs", mutation{faults: []vfs.Fault{{Kind: vfs.FaultSyncLost, Pattern: "*"}}}},
	} {
		for _, sc := range crashScenarios() {
			if !picked[sc.name] {
				continue
			}
			stats := map[string]int{}
			_, _, failures, first := crashAtEveryPoint(t, sc, stats, m.mutation)
			v2 := stats["v2-violations"]
			t.Logf("%s, %s: %d violations, %d of them in v2 queues", m.name, sc.name, failures, v2)
			if v2 == 0 {
				t.Errorf("%s, %s: the crash test found %d violations, none in v2 queues; it must find some there", m.name, sc.name, failures)
			}
			for _, f := range first[:min(2, len(first))] {
				t.Logf("  e.g. %s", f)
			}
		}
	}
}

// verifyCrash crashes the driver's filesystem, recovers and returns the
// violations found.
func verifyCrash(d *driver, power bool, stats map[string]int) []string {
	var out []string
	bad := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if power {
		d.mem.PowerLoss()
	} else {
		d.mem.CrashProcess()
	}
	p := d.sc.p
	if power && p.fsyncBeforeConfirm() {
		onDisk := rdqEntriesIn(d.mem, d)
		for _, k := range sortedMsgKeys(d.m.confirmed) {
			if d.m.shared[k] && !d.m.ackTried[k] && !bytes.Equal(onDisk[k.id], d.m.term[k]) {
				bad("confirmed message %s of %s: its body is not in any .rdq after the power loss", k.id, k.queue)
			}
		}
	}
	window := gcWindow(d)
	var refs []QueueRef
	for _, r := range d.sc.queues {
		if r.Options.Durable {
			refs = append(refs, QueueRef{Name: r.Name, Options: r.Options})
		}
	}
	v, _, err := OpenVHost(d.mem, ".", p, refs)
	if err != nil {
		bad("vhost recovery failed: %v", err)
		return out
	}
	// Reads of files the GC holds wait for it, as in RabbitMQ.
	for _, st := range []*MsgStore{v.Store(true), v.Store(false)} {
		if _, err := st.RunGC(); err != nil {
			bad("GC after recovery failed: %v", err)
		}
	}
	back := map[msgKey]bool{}
	for _, r := range refs {
		q, rec, err := v.RecoverQueue(r.Name)
		if err != nil {
			bad("recovery of %s failed: %v", r.Name, err)
			continue
		}
		got, err := recoveredBodies(q, rec)
		if err != nil {
			bad("%s: recovered message unreadable: %v", r.Name, err)
			continue
		}
		for _, m := range got {
			k := msgKey{r.Name, m.id}
			if back[k] {
				bad("%s: message %s recovered twice", r.Name, m.id)
			}
			back[k] = true
			if want, ok := d.m.term[k]; !ok || !bytes.Equal(want, m.term) {
				bad("%s: recovered message %s was not published to it with these bytes", r.Name, m.id)
			}
			if !d.m.persistent[k] || !m.persistent {
				bad("%s: recovered transient message %s", r.Name, m.id)
			}
		}
	}
	v1 := func(q string) bool { return d.version(q) == 1 }
	for _, k := range sortedMsgKeys(d.m.confirmed) {
		if d.m.ackTried[k] || back[k] {
			continue
		}
		switch {
		case !power && window[k.id]:
			stats["gc-window"]++
		case !power:
			bad("confirmed message %s of %s lost after a process crash", k.id, k.queue)
		case v1(k.queue) && d.m.durable[k]:
			bad("confirmed message %s of v1 queue %s lost after a power loss", k.id, k.queue)
		case !v1(k.queue):
			// checkPowerLossV2
		default:
			stats["other-lost"]++
		}
	}
	for k := range back {
		switch {
		case !power && d.m.ackSynced[k]:
			bad("message %s of %s back after its ack reached the OS", k.id, k.queue)
		case power && v1(k.queue) && d.m.ackFsynced[k] && p.MaxJournalEntries > 1000:
			bad("message %s of v1 queue %s back after its ack was fsynced", k.id, k.queue)
		}
	}
	if power {
		checkPowerLossV2(d, promisedImage(d), back, stats, bad)
	}
	out = append(out, d.promised...)
	// The recovered vhost must keep working: collect garbage and stop.
	for _, st := range []*MsgStore{v.Store(true), v.Store(false)} {
		st.ScheduleCompaction()
		if _, err := st.RunGC(); err != nil {
			bad("GC after recovery failed: %v", err)
		}
	}
	if _, _, err := v.Shutdown(); err != nil {
		bad("shutdown after recovery failed: %v", err)
	}
	return out
}

// gcWindow returns the ids of the messages a 3.10 merge had copied to a
// .rdt when the crash came after it extended the destination .rdq with
// zeros and before it copied them back. RabbitMQ's recovery appends the
// .rdt after the zeros and its scanner stops at the first zero size field,
// so these messages are lost: a crash window of rabbit_msg_store 3.10
// (combine_files/3, recover_crashed_compaction/3) that the store models as
// is.
func gcWindow(d *driver) map[format.MsgID]bool {
	out := map[format.MsgID]bool{}
	dir := path.Join(VHostDir(".", d.sc.p.VHost), persistentStoreDir)
	names, _ := d.mem.List(dir)
	for _, n := range names {
		if path.Ext(n) != tmpExt {
			continue
		}
		main, err := readAll(d.mem, path.Join(dir, n[:len(n)-len(tmpExt)]+format.ExtMsgStore))
		if err != nil {
			continue
		}
		if _, end := scanMsgFile(main, false); end >= int64(len(main)) {
			continue
		}
		tmp, err := readAll(d.mem, path.Join(dir, n))
		if err != nil {
			continue
		}
		msgs, _ := scanMsgFile(tmp, false)
		for _, m := range msgs {
			out[m.id] = true
		}
	}
	return out
}

// shortScenarios are the scenarios of the -short crash test: rolls of
// the 3.10 stores, persistent and transient, a clean restart with v2
// queues, a 3.10 merge and a 3.13 compaction among them, so that it catches each mutation of
// testdata/mutations (go run ./scripts/mutate -short).
func shortScenarios(all []crashScenario) []crashScenario {
	var out []crashScenario
	for _, sc := range all {
		switch sc.name {
		case "v2-small", "v1-mixed", "v2-shared-gc", "v1-v2-fanout-restart", "3.13-compaction", "3.10-merges#3", "transient-rolls":
			out = append(out, sc)
		}
	}
	return out
}

func crashScenarios() []crashScenario {
	small := func(p Profile) Profile {
		p.FileSizeLimit = 24 << 10
		return p
	}
	v1d := QueueOptions{Durable: true, Version: 1}
	v2d := QueueOptions{Durable: true, Version: 2}
	segs := Profile310()
	segs.V2SegmentEntryCount = 8
	segs.V1SegmentEntryCount = 8
	journal := segs
	journal.MaxJournalEntries = 12
	out := []crashScenario{
		{name: "v2-small", p: Profile310(), queues: []QueueRef{{Name: "q2", Options: v2d}}, seed: 1, steps: 90, transPct: 10},
		{name: "v1-mixed", p: small(Profile310()), queues: []QueueRef{{Name: "q1", Options: v1d}}, seed: 2, steps: 100, largePct: 30, transPct: 10},
		{name: "v2-shared-gc", p: small(Profile310()), queues: []QueueRef{{Name: "a", Options: v2d}, {Name: "b", Options: v2d}}, seed: 3, steps: 140, largePct: 70, fanout: true},
		{name: "v1-v2-fanout-restart", p: small(Profile310()), queues: []QueueRef{{Name: "q1", Options: v1d}, {Name: "q2", Options: v2d}}, seed: 4, steps: 140, largePct: 50, transPct: 10, fanout: true, restartAt: []int{60, 110}},
		{name: "lazy-mixed", p: small(Profile310()), queues: []QueueRef{{Name: "lazy2", Options: QueueOptions{Durable: true, Version: 2, Lazy: true}}, {Name: "lazy1", Options: QueueOptions{Version: 1, Lazy: true}}}, seed: 5, steps: 100, largePct: 30, transPct: 40, restartAt: []int{50}},
		{name: "small-segments", p: segs, queues: []QueueRef{{Name: "q1", Options: v1d}, {Name: "q2", Options: v2d}}, seed: 6, steps: 140, transPct: 10, restartAt: []int{70}},
		{name: "journal-flushes", p: journal, queues: []QueueRef{{Name: "q1", Options: v1d}}, seed: 7, steps: 120, largePct: 20},
		{name: "3.13-compaction", p: small(Profile313()), queues: []QueueRef{{Name: "q1", Options: v1d}, {Name: "q2", Options: v2d}}, seed: 8, steps: 140, largePct: 70, fanout: true, restartAt: []int{90}},
		{name: "3.10-merges", p: small(Profile310()), queues: []QueueRef{{Name: "a", Options: v2d}, {Name: "b", Options: v1d}}, seed: 9, steps: 220, largePct: 90, fanout: true, randAcks: true},
		{name: "3.10-merges-restart", p: small(Profile310()), queues: []QueueRef{{Name: "a", Options: v2d}, {Name: "b", Options: v2d}}, seed: 10, steps: 220, largePct: 90, fanout: true, randAcks: true, restartAt: []int{120}},
		{name: "3.13-compaction-random", p: small(Profile313()), queues: []QueueRef{{Name: "a", Options: v2d}, {Name: "b", Options: v1d}}, seed: 11, steps: 220, largePct: 90, fanout: true, randAcks: true},
		// lazy queues page transient messages out: they roll the transient
		// store, whose clients want no confirms, so that the roll's fsync
		// is its only one (checkRolled)
		{name: "transient-rolls", p: small(Profile310()), queues: []QueueRef{{Name: "lazy2", Options: QueueOptions{Durable: true, Version: 2, Lazy: true}}, {Name: "lazy1", Options: QueueOptions{Version: 1, Lazy: true}}}, seed: 12, steps: 100, largePct: 80, transPct: 70},
	}
	// More seeds of the scenarios that exercise the GC most.
	for _, base := range []int{8, 10} {
		for seed := int64(1); seed <= 3; seed++ {
			sc := out[base]
			sc.seed = 100*seed + sc.seed
			sc.name = fmt.Sprintf("%s#%d", sc.name, seed+1)
			sc.steps = 300
			out = append(out, sc)
		}
	}
	return out
}
