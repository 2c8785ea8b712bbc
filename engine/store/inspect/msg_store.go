package inspect

import (
	"fmt"
	"path"
	"strings"

	"warren/engine/store/format"
)

// Reads the files of rabbit_msg_store: the .rdq files, scanned like
// rabbit_msg_file:scan/4.

// readStore scans every .rdq file of a store directory.
func (in *inspector) readStore(dir string) Store {
	s := Store{Dir: dir}
	ids := map[format.MsgID]*StoreEntry{}
	in.stores[dir] = ids
	names, err := in.fsys.List(in.full(dir))
	if err != nil {
		in.problem(dir, err)
		return s
	}
	var rdq []string
	for _, n := range names {
		if strings.HasSuffix(n, format.ExtMsgStore) {
			rdq = append(rdq, n)
			continue
		}
		rel := path.Join(dir, n)
		s.Other = append(s.Other, File{rel, in.size(rel)})
	}
	for _, n := range sortSegments(rdq, format.ExtMsgStore) {
		rel := path.Join(dir, n)
		data, ok := in.read(rel)
		if !ok {
			continue
		}
		f := StoreFile{Path: rel, Size: int64(len(data))}
		mf, err := format.DecodeMsgFile(rel, data)
		if err != nil {
			in.problem(rel, err)
		}
		f.End, f.Stop = mf.End, mf.Stop
		for _, e := range mf.Entries {
			se := StoreEntry{Offset: e.Offset, Size: e.Size, MsgID: e.MsgID, Valid: e.Valid()}
			if !se.Valid {
				se.Note = fmt.Sprintf("no write-OK marker (0x%02x): skipped by recovery", e.Marker)
			} else {
				body, m := in.bodyOf(rel, e.Offset+24, e.Payload)
				se.Body = body
				if m != nil && m.ID != e.MsgID {
					se.Note = fmt.Sprintf("the stored term has id %s", m.ID)
				}
			}
			f.Entries = append(f.Entries, se)
		}
		s.Files = append(s.Files, f)
	}
	// Index the valid entries by id; the first file holding an id wins, as
	// in recovery.
	for fi := range s.Files {
		for ei := range s.Files[fi].Entries {
			e := &s.Files[fi].Entries[ei]
			if _, dup := ids[e.MsgID]; e.Valid && !dup {
				ids[e.MsgID] = e
				in.paths[e] = fmt.Sprintf("%s@%d", s.Files[fi].Path, e.Offset)
			}
		}
	}
	return s
}

// storeFor returns the store that holds the bodies of persistent or
// transient messages.
func storeFor(persistent bool) string {
	if persistent {
		return PersistentStore
	}
	return TransientStore
}

// lookup finds the body of a message referenced by id.
func (in *inspector) lookup(e *Entry) {
	store := storeFor(e.Persistent)
	se, ok := in.stores[store][e.MsgID]
	if !ok {
		e.Note = "not in " + store + " on disk"
		return
	}
	e.StoreFile = in.paths[se]
	e.Body = se.Body
}

// countRefs counts, for every store entry, the live index entries that
// reference its id. The store pointers refer into report.Stores, whose
// slices are not resized after readStore.
func (in *inspector) countRefs() {
	refs := map[string]map[format.MsgID]int{}
	for _, q := range in.report.Queues {
		for _, e := range q.Entries {
			if e.Where != InMsgStore || !e.State.Live() {
				continue
			}
			store := storeFor(e.Persistent)
			if refs[store] == nil {
				refs[store] = map[format.MsgID]int{}
			}
			refs[store][e.MsgID]++
		}
	}
	for si := range in.report.Stores {
		s := &in.report.Stores[si]
		for fi := range s.Files {
			for ei := range s.Files[fi].Entries {
				e := &s.Files[fi].Entries[ei]
				if e.Valid {
					e.Refs = refs[s.Dir][e.MsgID]
				}
			}
		}
	}
}
