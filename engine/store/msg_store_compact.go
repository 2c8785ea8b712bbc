package store

import (
	"strconv"

	"warren/engine/say"
)

// Models the in-place compaction of rabbit_msg_store 3.13.7 (maybe_gc/2,
// find_files_to_compact/2, compact_file/2, do_compact_file/5,
// truncate_file/4): a file that saw removes is compacted when less than
// half of it is live; its holes are zeroed, then the last message is moved
// into the first hole that fits, again and again; the file is synced, the
// index updated, and the file truncated once no reader uses it.

// ScheduleCompaction is the 3.13 store's 15 s GC timer: every file that saw
// a remove since the last run and is less than half live is locked and
// queued for compaction. It does nothing in the 3.10 profile.
func (s *MsgStore) ScheduleCompaction() {
	if !s.p.inPlaceCompaction() {
		return
	}
	for _, n := range sortedKeys(s.candidates) {
		f := s.files[n]
		if f == nil || n == s.current || f.locked || f.valid <= 0 || f.valid*2 >= f.size {
			continue
		}
		f.locked = true
		s.jobs = append(s.jobs, &gcJob{kind: gcCompact, file: n})
	}
	s.candidates = map[uint64]bool{}
}

// compactPlan is do_compact_file/5 over the live messages, oldest first:
// the moves to make and the size the file can be truncated to.
func compactPlan(msgs []workMsg) ([][2]workMsg, int64) {
	var moves [][2]workMsg
	start := msgs
	end := make([]workMsg, len(msgs))
	for i, m := range msgs {
		end[len(msgs)-1-i] = m
	}
	offset := int64(0)
	for len(end) > 0 && len(start) > 0 {
		s0, e0 := start[0], end[0]
		if e0.total <= s0.offset-offset {
			moves = append(moves, [2]workMsg{e0, {id: e0.id, offset: offset, total: e0.total}})
			if s0.offset == e0.offset {
				return moves, offset + e0.total
			}
			offset += e0.total
			end = end[1:]
			continue
		}
		if s0.offset == e0.offset {
			return moves, s0.offset + s0.total
		}
		offset = s0.offset + s0.total
		start = start[1:]
	}
	return moves, offset
}

// compactScan scans the file and plans the blanking and the moves.
func (s *MsgStore) compactScan(j *gcJob) (GCReport, error) {
	n := j.file
	name := s.fileName(n)
	scanned, _, err := s.scanFile(n)
	if err != nil {
		return GCReport{}, err
	}
	live, _ := s.vacuum(n, scanned)
	var steps []gcStep
	// Blank the holes between live messages (and before the first one).
	prevEnd := int64(0)
	for _, m := range live {
		if m.offset > prevEnd {
			from, size := prevEnd, m.offset-prevEnd
			steps = append(steps, func() (GCReport, error) {
				f, err := s.d.open(name)
				if err != nil {
					return GCReport{}, err
				}
				defer f.close()
				_, err = f.writeAt(make([]byte, size), from)
				return GCReport{Step: "blank", File: name, Said: say.S("con.gc.d.zeroes", i64(size), i64(from))}, err
			})
		}
		prevEnd = m.offset + m.total
	}
	plan, truncateSize := compactPlan(live)
	for _, mv := range plan {
		from, to := mv[0], mv[1]
		steps = append(steps, func() (GCReport, error) {
			moves, err := s.copyBlock(n, n, name, []workMsg{from}, to.offset, false)
			return GCReport{Step: "move", File: name, Said: say.S("con.gc.d.bytesFromTo", i64(from.total), i64(from.offset), i64(to.offset)), Moved: moves}, err
		})
	}
	steps = append(steps, func() (GCReport, error) {
		if err := s.syncFile(name); err != nil {
			return GCReport{}, err
		}
		for _, mv := range plan {
			if loc := s.index[mv[0].id]; loc != nil && loc.file == n && loc.offset == mv[0].offset {
				loc.offset = mv[1].offset
			}
		}
		if f := s.files[n]; f != nil {
			f.locked = false
		}
		detail := say.S("con.gc.d.indexUpdated")
		if truncateSize > 0 {
			s.jobs = append(s.jobs, &gcJob{kind: gcTruncate, file: n, size: truncateSize})
			detail = gcAnd(detail, say.S("con.gc.d.truncateLater", i64(truncateSize)))
		}
		detail = gcAnd(say.S("con.gc.d.fsync"), gcAnd(say.S("con.gc.d.moved", strconv.Itoa(len(plan))), detail))
		return GCReport{Step: "sync", File: name, Said: detail}, nil
	})
	j.steps = append(steps, j.steps...)
	return GCReport{Step: "scan", File: name, Said: gcAnd(say.S("con.gc.d.live", strconv.Itoa(len(live))), gcAnd(say.S("con.gc.d.toMove", strconv.Itoa(len(plan))), say.S("con.gc.d.canShrink", i64(truncateSize))))}, nil
}

// truncateStep cuts a compacted file after its last message.
func (s *MsgStore) truncateStep(j *gcJob) (GCReport, error) {
	name := s.fileName(j.file)
	f := s.files[j.file]
	if f == nil {
		return GCReport{Step: "truncate", File: name, Said: say.S("con.gc.d.fileGone")}, nil
	}
	if err := s.truncateFile(name, j.size); err != nil {
		return GCReport{}, err
	}
	s.sumSize -= f.size - j.size
	old := f.size
	f.size = j.size
	return GCReport{Step: "truncate", File: name, Said: say.S("con.gc.d.fromTo", i64(old), i64(j.size))}, nil
}
