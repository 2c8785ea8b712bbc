package store

import (
	"fmt"
	"path"
	"strconv"

	"warren/engine/say"
	"warren/engine/store/format"
)

// Models rabbit_msg_store_gc and the GC half of rabbit_msg_store of 3.10.8
// (maybe_compact/1, find_files_to_combine/3, combine_files/3,
// delete_file/2): when the store holds more than twice the file size
// limit and more than half of it is garbage, the first pair of adjacent
// files that fits in one file is merged into the left one.

// garbageFraction is ?GARBAGE_FRACTION.
const garbageFraction = 0.5

// maxGCFiles is ?MAXIMUM_SIMULTANEOUS_GC_FILES.
const maxGCFiles = 4

// gcKind is what a GC job does.
type gcKind uint8

const (
	gcCombine  gcKind = iota // 3.10: merge a source file into its left neighbour
	gcDelete                 // delete a file without valid data
	gcCompact                // 3.13: move messages into holes of one file
	gcTruncate               // 3.13: cut a compacted file after its last message
)

// workMsg is a live message found by a scan of a file.
type workMsg struct {
	id     format.MsgID
	offset int64
	total  int64
}

// Move is a message the GC wrote at a new place.
type Move struct {
	ID         format.MsgID
	FromFile   uint64
	FromOffset int64
	ToFile     uint64
	ToOffset   int64
	Size       int64
}

// GCReport says what one GC step did.
type GCReport struct {
	Job    string // "combine 2 into 1", "delete 3", "compact 4", "truncate 4"
	Step   string // scan, create, copy, sync, truncate, extend, remove, blank, move, idle
	File   string // the file operated on
	Detail string // what happened, for people: Said in English
	// JobSaid is Job and Said is Detail as data (con.gc.job.*, con.gc.d.*).
	JobSaid say.Text
	Said    say.Text
	Moved   []Move // messages written at a new place by this step
	Done    bool   // the job finished with this step
	// Start says the job began with this step; Files are the numbers of
	// the files the job works on (combine: destination, then source).
	Start bool
	Files []uint64
	IO    IO
}

// gcStep is one planned step of a job.
type gcStep func() (GCReport, error)

// gcJob is one GC action in progress or waiting.
type gcJob struct {
	kind    gcKind
	file    uint64 // combine: destination; else the file
	src     uint64 // combine: source
	size    int64  // truncate: the new size
	started bool
	steps   []gcStep
}

func (j *gcJob) name() string { return j.said().String() }

// said is the job's name as data.
func (j *gcJob) said() say.Text {
	f := u64(j.file)
	switch j.kind {
	case gcCombine:
		return say.S("con.gc.job.combine", u64(j.src), f)
	case gcDelete:
		return say.S("con.gc.job.delete", f)
	case gcCompact:
		return say.S("con.gc.job.compact", f)
	}
	return say.S("con.gc.job.truncate", f)
}

// u64 and i64 are a number as a word of a said detail.
func u64(n uint64) string { return strconv.FormatUint(n, 10) }
func i64(n int64) string  { return strconv.FormatInt(n, 10) }

// gcAnd says two pieces of a step's detail, "; " between them.
func gcAnd(a, b say.Text) say.Text { return say.T("con.gc.d.and", a, b) }

// files lists the files the job works on.
func (j *gcJob) files() []uint64 {
	if j.kind == gcCombine {
		return []uint64{j.file, j.src}
	}
	return []uint64{j.file}
}

// GCPending reports whether GC jobs are queued or in progress.
func (s *MsgStore) GCPending() bool { return len(s.jobs) > 0 }

// GCStep runs one step of the first GC job that can run: a job waits while
// a file it needs has readers. The report's Step is "idle" when nothing can
// run.
func (s *MsgStore) GCStep() (GCReport, error) {
	base := s.mark()
	for i, j := range s.jobs {
		start := false
		if !j.started {
			if s.jobBlocked(j) {
				continue
			}
			j.started, start = true, true
			j.steps = s.planJob(j)
		}
		if len(j.steps) == 0 {
			// A step failed before planning the rest: drop the job.
			s.jobs = append(s.jobs[:i:i], s.jobs[i+1:]...)
			rep := GCReport{Step: "abandon", Said: say.S("con.gc.d.abandoned"), Done: true, IO: s.since(base)}
			rep.JobSaid = j.said()
			rep.Job, rep.Detail = rep.JobSaid.String(), rep.Said.String()
			return rep, nil
		}
		step := j.steps[0]
		j.steps = j.steps[1:]
		rep, err := step()
		rep.JobSaid, rep.Start, rep.Files = j.said(), start, j.files()
		rep.Job, rep.Detail = rep.JobSaid.String(), rep.Said.String()
		if err == nil && len(j.steps) == 0 {
			rep.Done = true
			s.jobs = append(s.jobs[:i:i], s.jobs[i+1:]...)
		}
		rep.IO = s.since(base)
		return rep, err
	}
	rep := GCReport{Step: "idle", Said: say.S("con.gc.d.nothing"), IO: s.since(base)}
	rep.Detail = rep.Said.String()
	return rep, nil
}

// RunGC runs GC steps until no job can run, and returns their file
// operations.
func (s *MsgStore) RunGC() (IO, error) {
	base := s.mark()
	for {
		rep, err := s.GCStep()
		if err != nil {
			return s.since(base), err
		}
		if rep.Step == "idle" {
			return s.since(base), nil
		}
	}
}

// jobBlocked reports whether a job must wait for readers to finish.
func (s *MsgStore) jobBlocked(j *gcJob) bool {
	readers := func(n uint64) bool { f := s.files[n]; return f != nil && f.readers > 0 }
	switch j.kind {
	case gcCombine:
		return readers(j.file) || readers(j.src)
	case gcCompact:
		return false
	}
	return readers(j.file)
}

func (s *MsgStore) planJob(j *gcJob) []gcStep {
	switch j.kind {
	case gcCombine:
		return []gcStep{func() (GCReport, error) { return s.combineScanDst(j) }}
	case gcDelete:
		return []gcStep{func() (GCReport, error) { return s.deleteScan(j) }}
	case gcCompact:
		return []gcStep{func() (GCReport, error) { return s.compactScan(j) }}
	}
	return []gcStep{func() (GCReport, error) { return s.truncateStep(j) }}
}

// maybeCompact starts a merge when the store is big and mostly garbage
// (3.10; 3.13 compacts on its timer, see ScheduleCompaction).
func (s *MsgStore) maybeCompact() {
	if s.p.inPlaceCompaction() {
		return
	}
	limit := s.p.FileSizeLimit
	if s.sumSize <= 2*limit || float64(s.sumSize-s.sumValid)/float64(s.sumSize) <= garbageFraction {
		return
	}
	if len(s.pendingGC) >= maxGCFiles {
		return
	}
	nums := sortedKeys(s.files)
	for i := 0; i+1 < len(nums); i++ {
		dst, src := nums[i], nums[i+1]
		if src == s.current {
			return
		}
		d, r := s.files[dst], s.files[src]
		if d.valid+r.valid <= limit && d.valid > 0 && r.valid > 0 && !d.locked && !r.locked {
			d.locked, r.locked = true, true
			s.pendingGC[dst], s.pendingGC[src] = nil, nil
			s.jobs = append(s.jobs, &gcJob{kind: gcCombine, file: dst, src: src})
			return
		}
	}
}

// deleteFileIfEmpty queues the deletion of a file other than the current
// one once it holds no valid data.
func (s *MsgStore) deleteFileIfEmpty(n uint64) {
	f := s.files[n]
	if n == s.current || f == nil || f.valid != 0 || (f.locked && !s.p.inPlaceCompaction()) {
		return
	}
	for _, j := range s.jobs {
		if j.kind == gcDelete && j.file == n {
			return
		}
	}
	if !s.p.inPlaceCompaction() {
		f.locked = true
		s.pendingGC[n] = nil
	}
	delete(s.candidates, n)
	s.jobs = append(s.jobs, &gcJob{kind: gcDelete, file: n})
}

// scanFile returns the entries of an .rdq file as the profile's scanner
// sees them, oldest first.
func (s *MsgStore) scanFile(n uint64) ([]workMsg, int64, error) {
	data, _, err := s.d.readFile(s.fileName(n))
	if err != nil {
		return nil, 0, err
	}
	msgs, end := scanMsgFile(data, s.p.inPlaceCompaction())
	return msgs, end, nil
}

// scanMsgFile finds the valid entries of an .rdq file. The 3.10 scanner
// (rabbit_msg_file:scan/4) stops at a zero size field; the 3.13 one skips
// bytes that do not start an entry, and keeps only the first entry of an
// id. end is where the last entry ends.
func scanMsgFile(data []byte, skipGarbage bool) ([]workMsg, int64) {
	var out []workMsg
	var end int64
	if !skipGarbage {
		f, _ := format.DecodeMsgFile("", data)
		for _, e := range f.Entries {
			if e.Valid() && e.Size >= 16 {
				out = append(out, workMsg{id: e.MsgID, offset: e.Offset, total: e.TotalSize()})
			}
		}
		return out, f.End
	}
	seen := map[format.MsgID]bool{}
	for off := int64(0); off+9+16 <= int64(len(data)); {
		size := be64(data[off:])
		if size >= 16 && size <= uint64(int64(len(data))-off-9) && data[off+8+int64(size)] == format.WriteOKMarker {
			var id format.MsgID
			copy(id[:], data[off+8:])
			if !seen[id] {
				seen[id] = true
				total := int64(size) + format.MsgFileEntryOverhead
				out = append(out, workMsg{id: id, offset: off, total: total})
				off += total
				end = off
				continue
			}
		}
		off++
	}
	return out, end
}

// vacuum keeps the scanned messages the index places exactly there with a
// positive count; entries with a zero count are dropped from the index.
func (s *MsgStore) vacuum(n uint64, msgs []workMsg) ([]workMsg, int64) {
	var live []workMsg
	var valid int64
	for _, m := range msgs {
		loc := s.placedAt(m.id, n, m.offset)
		if loc == nil || loc.total != m.total {
			continue
		}
		if loc.refs == 0 {
			delete(s.index, m.id)
			continue
		}
		live = append(live, m)
		valid += m.total
	}
	return live, valid
}

// blocks groups messages that follow each other in their file.
func blocks(msgs []workMsg) [][]workMsg {
	var out [][]workMsg
	for i, m := range msgs {
		if i > 0 {
			last := out[len(out)-1]
			p := last[len(last)-1]
			if p.offset+p.total == m.offset {
				out[len(out)-1] = append(last, m)
				continue
			}
		}
		out = append(out, []workMsg{m})
	}
	return out
}

// copyBlock reads a run of messages from one file and writes it at to in
// another, updating the index; it returns the moves.
func (s *MsgStore) copyBlock(from, toFile uint64, toName string, block []workMsg, to int64, updateIndex bool) ([]Move, error) {
	start := block[0].offset
	last := block[len(block)-1]
	size := last.offset + last.total - start
	src, err := s.d.open(s.fileName(from))
	if err != nil {
		return nil, err
	}
	defer src.close()
	buf := make([]byte, size)
	if n, err := src.readAt(buf, start); n < len(buf) {
		return nil, fmt.Errorf("%s: offset %d: %d bytes to copy, %d read (%v)", s.fileName(from), start, size, n, err)
	}
	dst, err := s.d.open(toName)
	if err != nil {
		return nil, err
	}
	defer dst.close()
	if _, err := dst.writeAt(buf, to); err != nil {
		return nil, err
	}
	var moves []Move
	for _, m := range block {
		at := to + m.offset - start
		moves = append(moves, Move{ID: m.id, FromFile: from, FromOffset: m.offset, ToFile: toFile, ToOffset: at, Size: m.total})
		if updateIndex {
			if loc := s.index[m.id]; loc != nil {
				loc.file, loc.offset = toFile, at
			}
		}
	}
	return moves, nil
}

func (s *MsgStore) syncFile(name string) error {
	f, err := s.d.open(name)
	if err != nil {
		return err
	}
	defer f.close()
	return f.sync()
}

func (s *MsgStore) truncateFile(name string, size int64) error {
	f, err := s.d.open(name)
	if err != nil {
		return err
	}
	defer f.close()
	return f.truncate(size)
}

// combineScanDst scans the destination and plans the rest of the merge.
func (s *MsgStore) combineScanDst(j *gcJob) (GCReport, error) {
	dst, src := j.file, j.src
	dstName := s.fileName(dst)
	scanned, _, err := s.scanFile(dst)
	if err != nil {
		return GCReport{}, err
	}
	work, dstValid := s.vacuum(dst, scanned)
	if dstValid != s.files[dst].valid {
		return GCReport{}, fmt.Errorf("%s: the index says %d valid bytes, a scan finds %d", dstName, s.files[dst].valid, dstValid)
	}
	total := dstValid + s.files[src].valid
	top := int64(0)
	i := 0
	for ; i < len(work) && work[i].offset == top; i++ {
		top += work[i].total
	}
	tail := work[i:]
	rep := GCReport{Step: "scan", File: dstName, Said: gcAnd(say.S("con.gc.d.liveContiguous", strconv.Itoa(len(work)), i64(dstValid), i64(top)), say.S("con.gc.d.mergedSize", i64(total)))}
	var steps []gcStep
	if len(tail) > 0 {
		tmp := s.tmpName(dst)
		steps = append(steps, func() (GCReport, error) {
			f, err := s.d.create(tmp)
			if err == nil {
				f.close()
			}
			return GCReport{Step: "create", File: tmp, Said: say.S("con.gc.d.tempCopy")}, err
		})
		at := int64(0)
		for _, b := range blocks(tail) {
			b, to := b, at
			at += b[len(b)-1].offset + b[len(b)-1].total - b[0].offset
			steps = append(steps, func() (GCReport, error) {
				moves, err := s.copyBlock(dst, dst, tmp, b, to, false)
				for _, m := range moves {
					if loc := s.index[m.ID]; loc != nil {
						loc.offset = top + m.ToOffset
					}
				}
				return GCReport{Step: "copy", File: tmp, Said: say.S("con.gc.d.messagesFromTo", strconv.Itoa(len(b)), path.Base(dstName), i64(b[0].offset), path.Base(tmp), i64(to)), Moved: moves}, err
			})
		}
		tmpSize := at
		steps = append(steps,
			func() (GCReport, error) {
				return GCReport{Step: "sync", File: tmp, Said: say.S("con.gc.d.fsync")}, s.syncFile(tmp)
			},
			s.truncateStepFn(dstName, top, "con.gc.d.cutPrefix"),
			s.truncateStepFn(dstName, total, "con.gc.d.extend"),
			func() (GCReport, error) {
				err := s.copyRaw(tmp, dstName, 0, tmpSize, top)
				var moves []Move
				for _, m := range tail {
					if loc := s.index[m.id]; loc != nil {
						moves = append(moves, Move{ID: m.id, FromFile: dst, FromOffset: m.offset, ToFile: dst, ToOffset: loc.offset, Size: m.total})
					}
				}
				return GCReport{Step: "copy", File: dstName, Said: say.S("con.gc.d.bytesBack", i64(tmpSize), path.Base(tmp), path.Base(dstName), i64(top)), Moved: moves}, err
			})
		steps = append(steps,
			func() (GCReport, error) {
				return GCReport{Step: "sync", File: dstName, Said: say.S("con.gc.d.fsync")}, s.syncFile(dstName)
			},
			func() (GCReport, error) {
				return GCReport{Step: "remove", File: tmp, Said: say.S("con.gc.d.tempGone")}, s.d.remove(tmp)
			})
	} else {
		steps = append(steps,
			s.truncateStepFn(dstName, top, "con.gc.d.cutLive"),
			s.truncateStepFn(dstName, total, "con.gc.d.extend"))
	}
	steps = append(steps, func() (GCReport, error) { return s.combineScanSrc(j, dstValid, total) })
	j.steps = append(steps, j.steps...)
	return rep, nil
}

// truncateStepFn is a step that cuts or extends a file to size; why is
// the key of what for (con.gc.d.cutPrefix, con.gc.d.cutLive,
// con.gc.d.extend).
func (s *MsgStore) truncateStepFn(name string, size int64, why string) gcStep {
	return func() (GCReport, error) {
		op := "truncate"
		if why == "con.gc.d.extend" {
			op = "extend"
		}
		return GCReport{Step: op, File: name, Said: say.T("con.gc.d.toBytes", i64(size), say.S(why))}, s.truncateFile(name, size)
	}
}

// copyRaw copies size bytes of one file at from to another at to.
func (s *MsgStore) copyRaw(fromName, toName string, from, size, to int64) error {
	src, err := s.d.open(fromName)
	if err != nil {
		return err
	}
	defer src.close()
	buf := make([]byte, size)
	if n, err := src.readAt(buf, from); n < len(buf) {
		return fmt.Errorf("%s: offset %d: %d bytes to copy, %d read (%v)", fromName, from, size, n, err)
	}
	dst, err := s.d.open(toName)
	if err != nil {
		return err
	}
	defer dst.close()
	_, err = dst.writeAt(buf, to)
	return err
}

// combineScanSrc scans the source and plans its copy into the destination.
func (s *MsgStore) combineScanSrc(j *gcJob, dstValid, total int64) (GCReport, error) {
	dst, src := j.file, j.src
	dstName, srcName := s.fileName(dst), s.fileName(src)
	scanned, _, err := s.scanFile(src)
	if err != nil {
		return GCReport{}, err
	}
	work, srcValid := s.vacuum(src, scanned)
	if dstValid+srcValid != total {
		return GCReport{}, fmt.Errorf("%s: the index says %d valid bytes, a scan finds %d", srcName, total-dstValid, srcValid)
	}
	rep := GCReport{Step: "scan", File: srcName, Said: say.S("con.gc.d.append", strconv.Itoa(len(work)), i64(srcValid), path.Base(dstName), i64(dstValid))}
	var steps []gcStep
	at := dstValid
	for _, b := range blocks(work) {
		b, to := b, at
		at += b[len(b)-1].offset + b[len(b)-1].total - b[0].offset
		steps = append(steps, func() (GCReport, error) {
			moves, err := s.copyBlock(src, dst, dstName, b, to, true)
			return GCReport{Step: "copy", File: dstName, Said: say.S("con.gc.d.messagesFromTo", strconv.Itoa(len(b)), path.Base(srcName), i64(b[0].offset), path.Base(dstName), i64(to)), Moved: moves}, err
		})
	}
	if len(work) > 0 {
		steps = append(steps, func() (GCReport, error) {
			return GCReport{Step: "sync", File: dstName, Said: say.S("con.gc.d.fsync")}, s.syncFile(dstName)
		})
	}
	steps = append(steps, func() (GCReport, error) { return s.combineFinish(j, total) })
	j.steps = append(steps, j.steps...)
	return rep, nil
}

// combineFinish deletes the source and hands both files back to the store.
func (s *MsgStore) combineFinish(j *gcJob, total int64) (GCReport, error) {
	dst, src := j.file, j.src
	d, r := s.files[dst], s.files[src]
	reclaimed := r.size + d.size - total
	d.valid, d.size = total, total
	if err := s.d.remove(s.fileName(src)); err != nil {
		return GCReport{}, err
	}
	delete(s.files, src)
	d.locked = false
	s.sumSize -= reclaimed
	rep := GCReport{Step: "remove", File: s.fileName(src), Said: gcAnd(say.S("con.gc.d.mergedInto", path.Base(s.fileName(dst)), i64(total)), say.S("con.gc.d.reclaimed", i64(reclaimed)))}
	err := s.runPending(src, dst)
	s.maybeCompact()
	return rep, err
}

// runPending replays the removes that waited for the files.
func (s *MsgStore) runPending(files ...uint64) error {
	for _, n := range files {
		ops := s.pendingGC[n]
		delete(s.pendingGC, n)
		for _, op := range ops {
			if err := s.removeMessage(op.client, op.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteScan checks that a file holds nothing live and plans its removal.
func (s *MsgStore) deleteScan(j *gcJob) (GCReport, error) {
	name := s.fileName(j.file)
	scanned, _, err := s.scanFile(j.file)
	if err != nil {
		return GCReport{}, err
	}
	if live, _ := s.vacuum(j.file, scanned); len(live) > 0 {
		// A write revived a message of the file meanwhile: keep it.
		if f := s.files[j.file]; f != nil && !s.p.inPlaceCompaction() {
			f.locked = false
		}
		err := s.runPending(j.file)
		return GCReport{Step: "scan", File: name, Said: gcAnd(say.S("con.gc.d.liveAgain", strconv.Itoa(len(live))), say.S("con.gc.d.stays"))}, err
	}
	j.steps = append([]gcStep{func() (GCReport, error) {
		f := s.files[j.file]
		if err := s.d.remove(name); err != nil {
			return GCReport{}, err
		}
		delete(s.files, j.file)
		s.sumSize -= f.size
		err := s.runPending(j.file)
		s.maybeCompact()
		return GCReport{Step: "remove", File: name, Said: gcAnd(say.S("con.gc.d.noLive"), say.S("con.gc.d.reclaimed", i64(f.size)))}, err
	}}, j.steps...)
	return GCReport{Step: "scan", File: name, Said: say.S("con.gc.d.noneLive", strconv.Itoa(len(scanned)))}, nil
}
