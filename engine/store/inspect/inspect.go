package inspect

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"warren/engine/store/format"
	"warren/engine/vfs"
)

// Names of the shared message stores in a vhost folder.
const (
	PersistentStore = "msg_store_persistent"
	TransientStore  = "msg_store_transient"
	queuesDir       = "queues"
)

// inspector carries what one run has read so far.
type inspector struct {
	fsys   vfs.FS
	root   string
	report *Report
	// stores maps a store directory and message id to the first valid entry
	// with that id.
	stores map[string]map[format.MsgID]*StoreEntry
	paths  map[*StoreEntry]string // "msg_store_persistent/0.rdq@0"
}

// Inspect reads the vhost folder dir of fsys (the folder that holds queues/
// and msg_store_persistent/). A file that cannot be decoded completely is
// reported in Report.Problems, and what could be decoded is kept; the error
// is for a folder that cannot be read or is not a vhost folder.
func Inspect(fsys vfs.FS, dir string) (*Report, error) {
	names, err := fsys.List(dir)
	if err != nil {
		return nil, err
	}
	in := &inspector{
		fsys:   fsys,
		root:   dir,
		report: &Report{SegmentEntryCount: format.LegacyV1SegmentEntryCount},
		stores: map[string]map[format.MsgID]*StoreEntry{},
		paths:  map[*StoreEntry]string{},
	}
	vhostLike := false
	for _, n := range names {
		if n == queuesDir || n == PersistentStore || n == TransientStore {
			vhostLike = true
		}
	}
	if !vhostLike {
		return nil, fmt.Errorf("not a RabbitMQ vhost folder: it has no %s/, %s/ or %s/", queuesDir, PersistentStore, TransientStore)
	}
	r := in.report
	// Stores first, so that queue entries can find their bodies.
	for _, n := range names {
		if (n == PersistentStore || n == TransientStore) && in.isDir(n) {
			r.Stores = append(r.Stores, in.readStore(n))
		}
	}
	for _, n := range names {
		switch {
		case n == PersistentStore || n == TransientStore:
			if !in.isDir(n) {
				in.other(n)
			}
		case n == format.VHostFile:
			if data, ok := in.read(n); ok {
				r.VHost, r.HasVHost = string(data), true
			}
		case n == format.VHostConfig:
			if data, ok := in.read(n); ok {
				count, err := format.DecodeVHostConfig(n, data)
				if err != nil {
					in.problem(n, err)
				} else {
					r.SegmentEntryCount, r.HasConfig = count, true
				}
			}
		case n == queuesDir && in.isDir(n):
			in.readQueues()
		default:
			in.other(n)
		}
	}
	in.countRefs()
	return r, nil
}

func (in *inspector) full(rel string) string { return path.Join(in.root, rel) }

func (in *inspector) isDir(rel string) bool { return vfs.IsDir(in.fsys, in.full(rel)) }

func (in *inspector) problem(rel string, err error) {
	in.report.Problems = append(in.report.Problems, Problem{File: rel, Err: err})
}

// read returns a file's content, recording a problem when it cannot.
func (in *inspector) read(rel string) ([]byte, bool) {
	data, err := vfs.ReadFile(in.fsys, in.full(rel))
	if err != nil {
		in.problem(rel, err)
		return nil, false
	}
	return data, true
}

// size returns a file's size, or -1 for a directory or an unreadable file.
func (in *inspector) size(rel string) int64 {
	n, err := in.fsys.Stat(in.full(rel))
	if err != nil {
		return -1
	}
	return n
}

func (in *inspector) other(rel string) {
	in.report.Other = append(in.report.Other, File{Path: rel, Size: in.size(rel)})
}

// readQueues reads every directory under queues/, sorted by queue name.
func (in *inspector) readQueues() {
	dirs, err := in.fsys.List(in.full(queuesDir))
	if err != nil {
		in.problem(queuesDir, err)
		return
	}
	for _, d := range dirs {
		rel := path.Join(queuesDir, d)
		if !in.isDir(rel) {
			in.other(rel)
			continue
		}
		in.report.Queues = append(in.report.Queues, in.readQueue(rel))
	}
	sort.SliceStable(in.report.Queues, func(i, j int) bool {
		a, b := in.report.Queues[i], in.report.Queues[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Dir < b.Dir
	})
}

// readQueue reads one queue directory: its name stub and its v2 or v1 index.
func (in *inspector) readQueue(dir string) Queue {
	q := Queue{Dir: dir, Priority: -1}
	names, err := in.fsys.List(in.full(dir))
	if err != nil {
		in.problem(dir, err)
		return q
	}
	var qi, qs, idx []string
	var journal bool
	for _, n := range names {
		rel := path.Join(dir, n)
		switch {
		case n == format.QueueNameFile:
			in.readQueueName(&q, rel)
		case strings.HasSuffix(n, format.ExtIndexV2):
			qi = append(qi, n)
		case strings.HasSuffix(n, format.ExtQueueStore):
			qs = append(qs, n)
		case strings.HasSuffix(n, format.ExtIndexV1):
			idx = append(idx, n)
		case n == format.JournalName:
			journal = true
		default:
			q.Files = append(q.Files, FileInfo{File{rel, in.size(rel)}, "not decoded"})
		}
	}
	if len(qi) > 0 || len(qs) > 0 {
		q.IndexVersion = 2
		in.readV2(&q, sortSegments(qi, format.ExtIndexV2), sortSegments(qs, format.ExtQueueStore))
	}
	if len(idx) > 0 || journal {
		if q.IndexVersion == 0 {
			q.IndexVersion = 1
		}
		in.readV1(&q, sortSegments(idx, format.ExtIndexV1), journal)
	}
	if q.IndexVersion == 0 && q.HasName {
		q.IndexVersion = q.nameVersion
	}
	sort.SliceStable(q.Entries, func(i, j int) bool { return q.Entries[i].SeqID < q.Entries[j].SeqID })
	sort.SliceStable(q.Files, func(i, j int) bool { return q.Files[i].Path < q.Files[j].Path })
	return q
}

func (in *inspector) readQueueName(q *Queue, rel string) {
	data, ok := in.read(rel)
	if !ok {
		return
	}
	q.Files = append(q.Files, FileInfo{File{rel, int64(len(data))}, ""})
	qn, err := format.DecodeQueueName(rel, data)
	if err != nil {
		in.problem(rel, err)
		return
	}
	q.Name, q.VHost, q.HasName = qn.Queue, qn.VHost, true
	q.nameVersion = 1
	if qn.IndexV2 {
		q.nameVersion = 2
	}
	q.DirNameOK = path.Base(q.Dir) == format.QueueDirName(qn.VHost, qn.Queue)
	if n := len(qn.Queue); n >= 2 && qn.Queue[n-2] == 0 {
		q.Priority, q.Parent = int(qn.Queue[n-1]), qn.Queue[:n-2]
	}
}

// sortSegments orders segment file names by number; names that are not
// "<n><ext>" go last, by name.
func sortSegments(names []string, ext string) []string {
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool {
		a, errA := format.ParseSegmentFileName(out[i], ext)
		b, errB := format.ParseSegmentFileName(out[j], ext)
		switch {
		case errA == nil && errB == nil:
			return a < b
		case errA == nil:
			return true
		case errB == nil:
			return false
		}
		return out[i] < out[j]
	})
	return out
}

// bodyOf decodes a stored message term and returns its payload, recording a
// problem when the term does not decode.
func (in *inspector) bodyOf(rel string, at int64, term []byte) ([]byte, *format.Message) {
	m, err := format.DecodeMessage(rel, at, term)
	if err != nil {
		in.problem(rel, err)
		return nil, nil
	}
	return m.Payload(), m
}
