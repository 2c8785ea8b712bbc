package store

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"warren/engine/internal/order"
	"warren/engine/store/format"
)

// Models the start and stop of rabbit_msg_store: init/1, build_index/3,
// recover_crashed_compactions/1, count_msg_refs/3, terminate/2 and the
// files of a clean shutdown (clean.dot, file_summary.ets,
// msg_store_index.ets).
//
// NB: RabbitMQ writes file_summary.ets and msg_store_index.ets with
// ets:tab2file/3, a dump of Erlang's ETS tables. They are written here in a
// small text format of our own, one Erlang-like term per line:
//
//	{file_summary,File,ValidTotalSize,FileSize}.
//	{msg_location,"<32 hex digits of the id>",RefCount,File,Offset,TotalSize}.
//
// clean.dot is written as RabbitMQ writes it (rabbit_file:write_term_file),
// with the client refs as binaries.

// indexModule is the index module clean.dot names.
const indexModule = "rabbit_msg_store_ets_index"

// walkFunc counts the references the durable queues' indexes hold.
type walkFunc func() (map[format.MsgID]int, error)

func newMsgStore(d *disk, dir string, p Profile, persistent bool) *MsgStore {
	return &MsgStore{
		d: d, dir: dir, p: p, persistent: persistent,
		files:      map[uint64]*fileSummary{},
		index:      map[format.MsgID]*msgLocation{},
		flying:     map[flyKey]int{},
		cache:      map[format.MsgID]*cacheEntry{},
		clients:    map[ClientRef]bool{},
		pending:    map[ClientRef]map[format.MsgID]bool{},
		pendingGC:  map[uint64][]pendingOp{},
		candidates: map[uint64]bool{},
	}
}

// openMsgStore starts a store. With fresh set (the transient store, which
// starts without client refs) its directory is wiped. Otherwise it
// recovers: from the clean shutdown files when they are all there and
// clean.dot names exactly refs, else by rebuilding the reference counts
// with walk and scanning every file.
func openMsgStore(d *disk, dir string, p Profile, persistent, fresh bool, refs []ClientRef, walk walkFunc) (*MsgStore, error) {
	s := newMsgStore(d, dir, p, persistent)
	if fresh {
		if err := d.removeAll(dir); err != nil {
			return nil, err
		}
	}
	if err := d.mkdirAll(dir); err != nil {
		return nil, err
	}
	clean := false
	if !fresh {
		noTmp, err := s.recoverCrashedCompactions()
		if err != nil {
			return nil, err
		}
		summaryOK := false
		if noTmp {
			if summaryOK, err = s.readFileSummary(); err != nil {
				return nil, err
			}
		}
		if summaryOK {
			if clean, err = s.readCleanTerms(refs); err != nil {
				return nil, err
			}
		}
		if clean {
			if clean, err = s.readIndex(); err != nil {
				return nil, err
			}
		} else if err := d.removeIfExists(path.Join(dir, indexFile)); err != nil {
			return nil, err
		}
	}
	var offset int64
	var err error
	if clean {
		offset = s.buildFromSummary()
	} else {
		s.files, s.index = map[uint64]*fileSummary{}, map[format.MsgID]*msgLocation{}
		if offset, err = s.rebuildIndex(walk); err != nil {
			return nil, err
		}
	}
	s.clean = clean
	f, _, err := d.openOrCreate(s.fileName(s.current))
	if err != nil {
		return nil, err
	}
	err = f.truncate(offset)
	f.close()
	if err != nil {
		return nil, err
	}
	s.curRaw = offset
	if !clean {
		for _, n := range sortedKeys(s.files) {
			s.deleteFileIfEmpty(n)
		}
	}
	s.maybeCompact()
	return s, nil
}

// recoverCrashedCompactions appends each .rdt left by a crashed merge to
// its .rdq (the rebuilt index copes with the duplicates) and deletes it.
// It reports whether there was none.
func (s *MsgStore) recoverCrashedCompactions() (bool, error) {
	tmps, err := s.d.segmentFiles(s.dir, tmpExt)
	if err != nil {
		return false, err
	}
	for _, n := range tmps {
		tmp := s.tmpName(n)
		data, _, err := s.d.readFile(tmp)
		if err != nil {
			return false, err
		}
		if s.d.exists(s.fileName(n)) && len(data) > 0 {
			f, err := s.d.open(s.fileName(n))
			if err != nil {
				return false, err
			}
			_, err = f.write(data)
			if err == nil {
				err = f.sync()
			}
			f.close()
			if err != nil {
				return false, err
			}
		}
		if err := s.d.remove(tmp); err != nil {
			return false, err
		}
	}
	return len(tmps) == 0, nil
}

// buildFromSummary takes the totals and the current file from a recovered
// file summary; it returns the current file's size.
func (s *MsgStore) buildFromSummary() int64 {
	var offset int64
	for _, n := range sortedKeys(s.files) {
		f := s.files[n]
		s.sumValid += f.valid
		s.sumSize += f.size
		s.current, offset = n, f.size
	}
	return offset
}

// rebuildIndex counts references with walk, then scans every .rdq: an id
// is placed in the first file (and, within a file, at the last offset)
// where it appears, if some queue references it. The last file is cut
// after its last such message. It returns the current file's size.
func (s *MsgStore) rebuildIndex(walk walkFunc) (int64, error) {
	if walk != nil {
		counts, err := walk()
		if err != nil {
			return 0, err
		}
		for id, c := range counts {
			if c > 0 {
				s.index[id] = &msgLocation{refs: c}
			}
		}
	}
	nums, err := s.d.segmentFiles(s.dir, format.ExtMsgStore)
	if err != nil {
		return 0, err
	}
	if len(nums) == 0 {
		nums = []uint64{0}
	}
	for i, n := range nums {
		data, _, err := s.d.readFile(s.fileName(n))
		if err != nil {
			return 0, err
		}
		msgs, _ := scanMsgFile(data, s.p.inPlaceCompaction())
		var valid, lastEnd int64
		for k := len(msgs) - 1; k >= 0; k-- {
			m := msgs[k]
			loc, ok := s.index[m.id]
			if !ok || loc.placed {
				continue
			}
			loc.placed, loc.file, loc.offset, loc.total = true, n, m.offset, m.total
			valid += m.total
			if end := m.offset + m.total; end > lastEnd {
				lastEnd = end
			}
		}
		size := int64(len(data))
		if i == len(nums)-1 {
			size = lastEnd
		}
		s.files[n] = &fileSummary{valid: valid, size: size}
		s.sumValid += valid
		s.sumSize += size
	}
	for id, loc := range s.index {
		if !loc.placed {
			delete(s.index, id)
		}
	}
	s.current = nums[len(nums)-1]
	return s.files[s.current].size, nil
}

// Terminate stops the store cleanly: queued GC jobs run to their end, the
// current file is synced and closed, and the file summary, the index and
// clean.dot are written so that the next start can skip the rebuild.
func (s *MsgStore) Terminate() (IO, error) {
	base := s.mark()
	if _, err := s.RunGC(); err != nil {
		return s.since(base), err
	}
	s.jobs = nil
	if err := s.sync(); err != nil {
		return s.since(base), err
	}
	s.out = nil
	if err := s.writeBuffer(); err != nil {
		return s.since(base), err
	}
	// Closing the current file fsyncs what was written since the last
	// fsync (file_handle_cache in 3.10; 3.13 is given the same here).
	if s.curDirty {
		if err := s.fsyncCurrent(); err != nil {
			return s.since(base), err
		}
	}
	if err := s.d.writeFile(path.Join(s.dir, fileSummaryFile), s.encodeFileSummary()); err != nil {
		return s.since(base), err
	}
	if err := s.d.writeFile(path.Join(s.dir, indexFile), s.encodeIndex()); err != nil {
		return s.since(base), err
	}
	err := s.writeTermFile(path.Join(s.dir, cleanFile), s.encodeCleanTerms())
	return s.since(base), err
}

// writeTermFile writes data as rabbit_file:write_file does: to Path.tmp,
// fsynced, then renamed over Path.
func (s *MsgStore) writeTermFile(name string, data []byte) error {
	tmp := name + termTmpExt
	f, err := s.d.create(tmp)
	if err != nil {
		return err
	}
	_, err = f.write(data)
	if err == nil {
		err = f.sync()
	}
	f.close()
	if err != nil {
		return err
	}
	return s.d.rename(tmp, name)
}

func (s *MsgStore) encodeFileSummary() []byte {
	var b strings.Builder
	for _, n := range sortedKeys(s.files) {
		f := s.files[n]
		fmt.Fprintf(&b, "{file_summary,%d,%d,%d}.\n", n, f.valid, f.size)
	}
	return []byte(b.String())
}

func (s *MsgStore) encodeIndex() []byte {
	ids := make([]format.MsgID, 0, len(s.index))
	for id, loc := range s.index {
		if loc.placed {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return string(ids[i][:]) < string(ids[j][:]) })
	var b strings.Builder
	for _, id := range ids {
		l := s.index[id]
		fmt.Fprintf(&b, "{msg_location,\"%s\",%d,%d,%d,%d}.\n", id, l.refs, l.file, l.offset, l.total)
	}
	return []byte(b.String())
}

// encodeCleanTerms renders [{client_refs, Refs}, {index_module, M}] with
// io_lib:format("~w.~n").
func (s *MsgStore) encodeCleanTerms() []byte {
	refs := make([]string, 0, len(s.clients))
	for c := range s.clients {
		refs = append(refs, string(c))
	}
	order.Strings(refs)
	var b strings.Builder
	b.WriteString("{client_refs,[")
	for i, r := range refs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(erlBinary(r))
	}
	b.WriteString("]}.\n{index_module," + indexModule + "}.\n")
	return []byte(b.String())
}

// erlBinary renders a binary as ~w does: <<1,2,3>>.
func erlBinary(v string) string {
	parts := make([]string, len(v))
	for i := 0; i < len(v); i++ {
		parts[i] = fmt.Sprint(v[i])
	}
	return "<<" + strings.Join(parts, ",") + ">>"
}

// readFileSummary loads and deletes file_summary.ets.
func (s *MsgStore) readFileSummary() (bool, error) {
	name := path.Join(s.dir, fileSummaryFile)
	data, ok, err := s.d.readFile(name)
	if err != nil || !ok {
		return false, err
	}
	if err := s.d.remove(name); err != nil {
		return false, err
	}
	files := map[uint64]*fileSummary{}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		f, ok := termFields(line, "file_summary", 3)
		if !ok {
			return false, nil
		}
		n, err1 := strconv.ParseUint(f[0], 10, 64)
		valid, err2 := strconv.ParseInt(f[1], 10, 64)
		size, err3 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || valid < 0 || size < 0 || valid > size {
			return false, nil
		}
		files[n] = &fileSummary{valid: valid, size: size}
	}
	if len(files) == 0 {
		return false, nil
	}
	s.files = files
	return true, nil
}

// readCleanTerms loads and deletes clean.dot and checks that it names the
// same client refs and index module.
func (s *MsgStore) readCleanTerms(refs []ClientRef) (bool, error) {
	name := path.Join(s.dir, cleanFile)
	data, ok, err := s.d.readFile(name)
	if err != nil || !ok {
		return false, err
	}
	if err := s.d.remove(name); err != nil {
		return false, err
	}
	want := make([]string, len(refs))
	for i, r := range refs {
		want[i] = string(r)
	}
	order.Strings(want)
	saved := newMsgStore(nil, "", s.p, false)
	for _, r := range want {
		saved.clients[ClientRef(r)] = true
	}
	return string(data) == string(saved.encodeCleanTerms()), nil
}

// readIndex loads and deletes msg_store_index.ets.
func (s *MsgStore) readIndex() (bool, error) {
	name := path.Join(s.dir, indexFile)
	data, ok, err := s.d.readFile(name)
	if err != nil || !ok {
		return false, err
	}
	if err := s.d.remove(name); err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		f, ok := termFields(line, "msg_location", 5)
		if !ok || len(f[0]) < 2 || f[0][0] != '"' || f[0][len(f[0])-1] != '"' {
			return false, nil
		}
		l := &msgLocation{placed: true}
		var errs [4]error
		l.refs, errs[0] = strconv.Atoi(f[1])
		l.file, errs[1] = strconv.ParseUint(f[2], 10, 64)
		l.offset, errs[2] = strconv.ParseInt(f[3], 10, 64)
		l.total, errs[3] = strconv.ParseInt(f[4], 10, 64)
		if errs != [4]error{} {
			return false, nil
		}
		id, err := format.ParseMsgID(f[0][1 : len(f[0])-1])
		if err != nil || s.files[l.file] == nil || l.refs < 0 || l.offset < 0 || l.total < 16+format.MsgFileEntryOverhead {
			return false, nil
		}
		s.index[id] = l
	}
	return true, nil
}

// termFields splits a line "{tag,F1,...,Fn}." of the files above into its n
// fields; ok is false for a line of any other shape. No field holds a comma.
func termFields(line, tag string, n int) ([]string, bool) {
	body, ok := strings.CutPrefix(line, "{"+tag+",")
	if !ok {
		return nil, false
	}
	if body, ok = strings.CutSuffix(body, "}."); !ok {
		return nil, false
	}
	f := strings.Split(body, ",")
	return f, len(f) == n
}
