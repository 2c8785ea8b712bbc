package store

import (
	"errors"
	"fmt"
	"path"
	"sort"

	"warren/engine/clone"
	"warren/engine/internal/order"
	"warren/engine/store/format"
)

// Models rabbit_msg_store (the server and the client halves).

// ClientRef names a msg_store client: one queue's connection to a store.
type ClientRef string

// ErrDeferred is returned by a read of a message whose file is being
// garbage collected; RabbitMQ parks such reads until the GC is done.
var ErrDeferred = errors.New("file locked by the garbage collector: read deferred")

// ErrNotFound is returned by a read of an id the store does not hold.
var ErrNotFound = errors.New("message not in the store")

// fileSummary is one .rdq file as the store tracks it.
type fileSummary struct {
	valid   int64 // bytes of messages with a positive reference count
	size    int64 // bytes in the file (appended, or after compaction)
	locked  bool  // the GC works on the file
	readers int   // reads in progress
}

// msgLocation is one index entry: where a message is and how many queue
// entries reference it.
type msgLocation struct {
	refs   int
	file   uint64
	offset int64
	total  int64 // size on disk: 8 + 16 + term + 1
	placed bool  // false for a reference counted during recovery but not yet found in a file
}

type flyKey struct {
	id     format.MsgID
	client ClientRef
}

// cacheEntry is a message of the current file kept in memory. Its term
// is a string, as it never changes once written: a copy of the store (a
// checkpoint's) shares the terms instead of copying each, megabytes when
// writes wait in the store's mailbox.
type cacheEntry struct {
	term  clone.Shared
	count int // writes not yet handled by the server
}

// pendingOp is a remove that waits for the GC to release a file.
type pendingOp struct {
	id     format.MsgID
	client ClientRef
}

// Confirm lists ids a store tells one client are handled: Written when the
// data reached the disk (an fsync in 3.10), not Written when the write was
// skipped because a remove cancelled it.
type Confirm struct {
	Client  ClientRef
	IDs     []format.MsgID
	Written bool
}

// StoreResult is what a store operation did.
type StoreResult struct {
	IO       IO
	Confirms []Confirm
}

// MsgStore is one shared message store of a vhost (msg_store_persistent or
// msg_store_transient): numbered .rdq files, an index of message id to
// location with reference counts, and a garbage collector.
type MsgStore struct {
	d          *disk
	dir        string
	p          Profile
	persistent bool

	files    map[uint64]*fileSummary
	current  uint64
	curRaw   int64  // bytes of the current file handed to the OS
	buf      []byte // file_handle_cache write buffer of the current file
	curDirty bool   // bytes of the current file written but not fsynced

	index   map[format.MsgID]*msgLocation
	flying  map[flyKey]int
	cache   map[format.MsgID]*cacheEntry // cur_file_cache
	clients map[ClientRef]bool           // registered clients; true: wants confirms
	pending map[ClientRef]map[format.MsgID]bool

	sumValid, sumSize int64

	pendingGC  map[uint64][]pendingOp // files locked by the GC and the removes waiting for them
	jobs       []*gcJob
	candidates map[uint64]bool // 3.13: files that saw a remove
	clean      bool            // recovered from a clean shutdown

	out []Confirm // confirms of the operation in progress
}

// take returns the confirms gathered by the operation in progress.
func (s *MsgStore) take() []Confirm {
	out := s.out
	s.out = nil
	return out
}

// Dir returns the store's directory.
func (s *MsgStore) Dir() string { return s.dir }

// Clean reports whether the store recovered from a clean shutdown.
func (s *MsgStore) Clean() bool { return s.clean }

func (s *MsgStore) fileName(n uint64) string {
	return path.Join(s.dir, segmentName(n, format.ExtMsgStore))
}

func (s *MsgStore) tmpName(n uint64) string { return path.Join(s.dir, segmentName(n, tmpExt)) }

// mark starts measuring the file operations of one store operation.
func (s *MsgStore) mark() IO { return s.d.io }

func (s *MsgStore) since(base IO) IO { return s.d.io.sub(base) }

// updateFlying is the server's check of the in-flight counter for a write
// (diff -1) or a remove (diff +1): it says whether to process the request
// or skip it because its opposite is also in flight.
func (s *MsgStore) updateFlying(diff int, id format.MsgID, c ClientRef) (bool, error) {
	k := flyKey{id, c}
	v, ok := s.flying[k]
	switch {
	case !ok, v == diff:
		return false, nil
	case v == -diff:
		delete(s.flying, k)
		return true, nil
	case v == 0:
		delete(s.flying, k)
		return false, nil
	case v >= 2:
		// The message is referenced twice by the queue: process it as a
		// fan-out copy.
		if v += diff; v == 0 {
			delete(s.flying, k)
		} else {
			s.flying[k] = v
		}
		return true, nil
	}
	return false, fmt.Errorf("%s: in-flight count %d for message %s of client %s", s.dir, v, id, c)
}

// HandleWrite is the server half of a write of id by client c.
func (s *MsgStore) HandleWrite(c ClientRef, id format.MsgID) (StoreResult, error) {
	base := s.mark()
	var res StoreResult
	ce, cached := s.cache[id]
	if cached && ce.count > 0 {
		ce.count--
	}
	process, err := s.updateFlying(-1, id, c)
	if err != nil {
		return res, err
	}
	if !process {
		s.confirmNow(c, []format.MsgID{id}, false)
		if loc, ok := s.index[id]; !(ok && loc.placed && loc.file == s.current) && cached && ce.count == 0 {
			delete(s.cache, id)
		}
		res.IO, res.Confirms = s.since(base), s.take()
		return res, nil
	}
	if !cached {
		return res, fmt.Errorf("%s: write of message %s by %s was not issued by the client", s.dir, id, c)
	}
	err = s.writeMessage(c, id, ce.term.Bytes())
	res.IO, res.Confirms = s.since(base), s.take()
	return res, err
}

// writeMessage stores a message or, when the store already holds it,
// counts one more reference.
func (s *MsgStore) writeMessage(c ClientRef, id format.MsgID, term []byte) error {
	loc, ok := s.index[id]
	if ok && loc.refs == 0 && (s.files[loc.file] == nil || s.files[loc.file].locked) {
		// The old copy's file is being collected or is gone: write anew.
		delete(s.index, id)
		ok = false
	}
	if !ok || !loc.placed {
		s.recordPending(c, id)
		return s.append(id, term)
	}
	if loc.refs == 0 {
		s.adjustValid(loc.file, loc.total)
	}
	loc.refs++
	if loc.file == s.current {
		s.recordPending(c, id)
		return nil
	}
	if e, ok := s.cache[id]; ok && e.count == 0 {
		delete(s.cache, id)
	}
	s.confirmNow(c, []format.MsgID{id}, true)
	return nil
}

// append writes an entry at the end of the current file, through the write
// buffer, and rolls to a new file once the limit is reached.
func (s *MsgStore) append(id format.MsgID, term []byte) error {
	offset := s.curRaw + int64(len(s.buf))
	s.buf = format.AppendMsgFileEntry(s.buf, id, term)
	total := int64(len(term)) + 16 + format.MsgFileEntryOverhead
	if len(s.buf) > s.p.MsgStoreBufferSize {
		if err := s.writeBuffer(); err != nil {
			return err
		}
	}
	s.index[id] = &msgLocation{refs: 1, file: s.current, offset: offset, total: total, placed: true}
	f := s.files[s.current]
	f.valid += total
	f.size += total
	s.sumValid += total
	s.sumSize += total
	if offset+total >= s.p.FileSizeLimit {
		return s.roll()
	}
	return nil
}

// writeBuffer hands the current file's write buffer to the OS.
func (s *MsgStore) writeBuffer() error {
	if len(s.buf) == 0 {
		return nil
	}
	f, err := s.d.open(s.fileName(s.current))
	if err != nil {
		return err
	}
	defer f.close()
	if _, err := f.writeAt(s.buf, s.curRaw); err != nil {
		return err
	}
	s.curRaw += int64(len(s.buf))
	s.buf = s.buf[:0]
	s.curDirty = true
	return nil
}

// roll syncs (confirming what waits), closes the current file, which
// writes its buffer and, in 3.10 (file_handle_cache), fsyncs what was
// written since the last fsync, and starts the next file.
func (s *MsgStore) roll() error {
	if err := s.sync(); err != nil {
		return err
	}
	if err := s.writeBuffer(); err != nil {
		return err
	}
	if s.curDirty && s.p.fsyncBeforeConfirm() {
		if err := s.fsyncCurrent(); err != nil {
			return err
		}
	}
	next := s.current + 1
	f, err := s.d.create(s.fileName(next))
	if err != nil {
		return err
	}
	f.close()
	s.files[next] = &fileSummary{}
	s.current, s.curRaw = next, 0
	for id, e := range s.cache {
		if e.count == 0 {
			delete(s.cache, id)
		}
	}
	s.maybeCompact()
	return nil
}

func (s *MsgStore) fsyncCurrent() error {
	f, err := s.d.open(s.fileName(s.current))
	if err != nil {
		return err
	}
	defer f.close()
	if err := f.sync(); err != nil {
		return err
	}
	s.curDirty = false
	return nil
}

// HandleRemove is the server half of client c removing ids.
func (s *MsgStore) HandleRemove(c ClientRef, ids []format.MsgID) (StoreResult, error) {
	base := s.mark()
	var res StoreResult
	var removed []format.MsgID
	for _, id := range ids {
		process, err := s.updateFlying(+1, id, c)
		if err != nil {
			return res, err
		}
		if !process {
			continue
		}
		removed = append(removed, id)
		if err := s.removeMessage(c, id); err != nil {
			res.IO, res.Confirms = s.since(base), s.take()
			return res, err
		}
	}
	s.confirmPending(c, removed, false)
	s.maybeCompact()
	res.IO, res.Confirms = s.since(base), s.take()
	return res, nil
}

// removeMessage drops one reference; the last one makes the bytes garbage
// and may leave a file empty.
func (s *MsgStore) removeMessage(c ClientRef, id format.MsgID) error {
	loc, ok := s.index[id]
	if !ok || !loc.placed || loc.refs <= 0 {
		return fmt.Errorf("%s: remove of message %s by %s: the store holds no reference to it", s.dir, id, c)
	}
	if loc.refs > 1 {
		loc.refs--
		return nil
	}
	f := s.files[loc.file]
	if f != nil && f.locked && !s.p.inPlaceCompaction() {
		s.pendingGC[loc.file] = append(s.pendingGC[loc.file], pendingOp{id, c})
		return nil
	}
	loc.refs = 0
	s.adjustValid(loc.file, -loc.total)
	if s.p.inPlaceCompaction() && loc.file != s.current {
		s.candidates[loc.file] = true
	}
	s.deleteFileIfEmpty(loc.file)
	return nil
}

func (s *MsgStore) adjustValid(file uint64, delta int64) {
	if f := s.files[file]; f != nil {
		f.valid += delta
	}
	s.sumValid += delta
}

func (s *MsgStore) recordPending(c ClientRef, id format.MsgID) {
	if !s.clients[c] {
		return
	}
	m := s.pending[c]
	if m == nil {
		m = map[format.MsgID]bool{}
		s.pending[c] = m
	}
	m[id] = true
}

// confirmNow tells c about ids at once (when c wants confirms).
func (s *MsgStore) confirmNow(c ClientRef, ids []format.MsgID, written bool) {
	if !s.clients[c] || len(ids) == 0 {
		return
	}
	s.out = append(s.out, Confirm{Client: c, IDs: append([]format.MsgID(nil), ids...), Written: written})
}

// confirmPending confirms those of ids that wait for a confirm.
func (s *MsgStore) confirmPending(c ClientRef, ids []format.MsgID, written bool) {
	m := s.pending[c]
	var out []format.MsgID
	for _, id := range ids {
		if m[id] {
			out = append(out, id)
			delete(m, id)
		}
	}
	if len(m) == 0 {
		delete(s.pending, c)
	}
	s.confirmNow(c, out, written)
}

// NeedsSync reports whether clients wait for confirms; the store then
// syncs on its 25 ms timer or when its mailbox is empty.
func (s *MsgStore) NeedsSync() bool { return len(s.pending) > 0 }

// Sync makes the current file durable when clients wait for confirms (3.10:
// write and fsync; 3.13: write to the OS only) and confirms them all.
func (s *MsgStore) Sync() (StoreResult, error) {
	base := s.mark()
	err := s.sync()
	return StoreResult{IO: s.since(base), Confirms: s.take()}, err
}

func (s *MsgStore) sync() error {
	if len(s.pending) == 0 {
		return nil
	}
	if err := s.writeBuffer(); err != nil {
		return err
	}
	if s.p.fsyncBeforeConfirm() {
		if err := s.fsyncCurrent(); err != nil {
			return err
		}
	}
	clients := make([]string, 0, len(s.pending))
	for c := range s.pending {
		clients = append(clients, string(c))
	}
	order.Strings(clients)
	for _, c := range clients {
		ids := sortedIDs(s.pending[ClientRef(c)])
		s.out = append(s.out, Confirm{Client: ClientRef(c), IDs: ids, Written: true})
	}
	s.pending = map[ClientRef]map[format.MsgID]bool{}
	return nil
}

func sortedIDs(m map[format.MsgID]bool) []format.MsgID {
	ids := make([]format.MsgID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return string(ids[i][:]) < string(ids[j][:]) })
	return ids
}

// Contains reports whether the store holds id with a positive count.
func (s *MsgStore) Contains(id format.MsgID) bool {
	loc, ok := s.index[id]
	return ok && loc.placed && loc.refs > 0
}

// Read returns the stored message term of id: from the cache of the
// current file, else from disk (writing the buffer first when the message
// is still in it). It returns ErrDeferred while the GC holds the file.
func (s *MsgStore) Read(id format.MsgID) ([]byte, IO, error) {
	base := s.mark()
	loc, ok := s.index[id]
	if !ok || !loc.placed || loc.refs <= 0 {
		if e, ok := s.cache[id]; ok {
			return []byte(e.term), s.since(base), nil
		}
		return nil, s.since(base), fmt.Errorf("%s: message %s: %w", s.dir, id, ErrNotFound)
	}
	if loc.file == s.current {
		if e, ok := s.cache[id]; ok {
			return []byte(e.term), s.since(base), nil
		}
		if loc.offset >= s.curRaw {
			if err := s.writeBuffer(); err != nil {
				return nil, s.since(base), err
			}
		}
	} else if f := s.files[loc.file]; f != nil && f.locked && !s.p.inPlaceCompaction() {
		return nil, s.since(base), fmt.Errorf("%s: message %s in %s: %w", s.dir, id, segmentName(loc.file, format.ExtMsgStore), ErrDeferred)
	}
	term, err := s.readAt(id, loc)
	return term, s.since(base), err
}

// readAt reads and checks the entry of id at loc.
func (s *MsgStore) readAt(id format.MsgID, loc *msgLocation) ([]byte, error) {
	name := s.fileName(loc.file)
	f, err := s.d.open(name)
	if err != nil {
		return nil, err
	}
	defer f.close()
	size, err := f.size()
	if err != nil {
		return nil, err
	}
	if loc.offset < 0 || loc.total < 16+format.MsgFileEntryOverhead || loc.offset+loc.total > size {
		return nil, fmt.Errorf("%s: offset %d: entry of %s (%d bytes) is not inside the file (%d bytes)", name, loc.offset, id, loc.total, size)
	}
	buf := make([]byte, loc.total)
	if n, err := f.readAt(buf, loc.offset); n < len(buf) {
		return nil, fmt.Errorf("%s: offset %d: entry of %s is cut short (%v)", name, loc.offset, id, err)
	}
	if int64(be64(buf))+format.MsgFileEntryOverhead != loc.total || format.MsgID(buf[8:24]) != id || buf[len(buf)-1] != format.WriteOKMarker {
		return nil, fmt.Errorf("%s: offset %d: the entry there is not message %s", name, loc.offset, id)
	}
	return buf[24 : len(buf)-1], nil
}

// BeginRead counts a reader of the file holding id, as a client read does,
// so that the GC waits for it; it returns the file to pass to EndRead.
func (s *MsgStore) BeginRead(id format.MsgID) (uint64, error) {
	loc, ok := s.index[id]
	if !ok || !loc.placed || loc.refs <= 0 {
		return 0, fmt.Errorf("%s: message %s: %w", s.dir, id, ErrNotFound)
	}
	f := s.files[loc.file]
	if f == nil {
		return 0, fmt.Errorf("%s: message %s: %w", s.dir, id, ErrNotFound)
	}
	if f.locked && !s.p.inPlaceCompaction() {
		return 0, fmt.Errorf("%s: message %s: %w", s.dir, id, ErrDeferred)
	}
	f.readers++
	return loc.file, nil
}

// EndRead ends a read begun by BeginRead.
func (s *MsgStore) EndRead(file uint64) {
	if f := s.files[file]; f != nil && f.readers > 0 {
		f.readers--
	}
}

// FileInfo describes one .rdq file.
type FileInfo struct {
	Num     uint64
	Valid   int64 // bytes of live messages
	Size    int64 // bytes in the file, as the store counts them
	Locked  bool
	Readers int
	Current bool
}

// Files lists the store's files, oldest first.
func (s *MsgStore) Files() []FileInfo {
	var out []FileInfo
	for _, n := range sortedKeys(s.files) {
		f := s.files[n]
		out = append(out, FileInfo{Num: n, Valid: f.valid, Size: f.size, Locked: f.locked, Readers: f.readers, Current: n == s.current})
	}
	return out
}

// Totals returns the bytes of live messages and the bytes of all files.
func (s *MsgStore) Totals() (valid, size int64) { return s.sumValid, s.sumSize }

// Refs returns the reference count of id (0 when unknown).
func (s *MsgStore) Refs(id format.MsgID) int {
	if loc, ok := s.index[id]; ok && loc.placed {
		return loc.refs
	}
	return 0
}

// Live reports whether the entry for id at offset in file is the copy the
// index points to and some queue still references it: what the garbage
// collector would keep.
func (s *MsgStore) Live(id format.MsgID, file uint64, offset int64) bool {
	loc := s.placedAt(id, file, offset)
	return loc != nil && loc.refs > 0
}

// placedAt is id's index entry when the index places it at offset in file.
func (s *MsgStore) placedAt(id format.MsgID, file uint64, offset int64) *msgLocation {
	if loc, ok := s.index[id]; ok && loc.placed && loc.file == file && loc.offset == offset {
		return loc
	}
	return nil
}

// Entry says where id's entry is, as a client's read finds it: the path of
// its .rdq file, its offset and its size on disk; cached when the store's
// cache of its current file holds the message, which a read then takes
// without touching the file. ok is false for a message the store does not
// hold.
func (s *MsgStore) Entry(id format.MsgID) (path string, off, size int64, cached, ok bool) {
	loc, found := s.index[id]
	if !found || !loc.placed || loc.refs <= 0 {
		return "", 0, 0, false, false
	}
	_, cached = s.cache[id]
	return s.fileName(loc.file), loc.offset, loc.total, cached && loc.file == s.current, true
}
