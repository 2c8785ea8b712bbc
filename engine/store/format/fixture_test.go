package format

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readSnapshot loads every file under dir, by slash path.
func readSnapshot(t *testing.T, dir string) snapshot {
	t.Helper()
	snap := snapshot{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		data, err := os.ReadFile(p)
		snap[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatalf("reading %s: %v", dir, err)
	}
	return snap
}

// TestFixtures decodes every file of every fixture snapshot and checks it
// against its CASE.md: file sizes and hashes, every decoded line CASE.md
// lists, and every stored message against the message table.
func TestFixtures(t *testing.T) {
	cases := loadCases(t)
	if len(cases) != 7 {
		t.Errorf("found %d fixture cases, want 7", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			seen := map[string]bool{}
			for _, sn := range c.Snapshots {
				t.Run(sn.Name, func(t *testing.T) {
					checkSnapshot(t, c, sn, seen)
				})
			}
			for _, m := range c.Messages {
				if m.ID != "" && !seen[m.ID] {
					t.Errorf("message #%d (id %s) was not found in any snapshot", m.Index, m.ID)
				}
			}
		})
	}
}

func checkSnapshot(t *testing.T, c *fixtureCase, sn *caseSnapshot, seen map[string]bool) {
	dir := filepath.Join(c.Dir, sn.Name)
	if len(sn.Files) == 0 {
		if _, err := os.Stat(dir); err == nil {
			t.Fatalf("%s exists but CASE.md lists no files for it", dir)
		}
		return
	}
	snap := readSnapshot(t, dir)
	listed := map[string]bool{}
	for _, f := range sn.Files {
		listed[f.Path] = true
		data, ok := snap[f.Path]
		if !ok {
			t.Errorf("%s: listed in CASE.md, missing on disk", f.Path)
			continue
		}
		sum := sha256.Sum256(data)
		if int64(len(data)) != f.Size || hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("%s: %d bytes sha256 %x, CASE.md says %d bytes %s", f.Path, len(data), sum, f.Size, f.SHA256)
		}
	}
	for _, p := range snap.paths() {
		if !listed[p] {
			t.Errorf("%s: on disk but not listed in CASE.md", p)
		}
	}
	for _, p := range snap.paths() {
		want, ok := sn.Decoded[p]
		if !ok {
			t.Errorf("%s: CASE.md has no decode of this file", p)
			continue
		}
		got, err := describeFile(c, snap, p)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		checkLines(t, p, got, want)
		checkMessages(t, c, snap, p, seen)
	}
}

// checkLines requires every line CASE.md shows to appear in got, in order.
func checkLines(t *testing.T, p string, got, want []string) {
	t.Helper()
	i := 0
	for _, w := range want {
		if strings.Contains(w, "lines omitted") {
			continue
		}
		for i < len(got) && got[i] != w {
			i++
		}
		if i == len(got) {
			t.Errorf("%s: CASE.md line not produced (or out of order):\n  %s\ngenerated:\n%s", p, w, strings.Join(got, "\n"))
			return
		}
		i++
	}
}

// checkMessages decodes every stored message term in a file and checks it
// against the CASE.md message it is.
func checkMessages(t *testing.T, c *fixtureCase, snap snapshot, p string, seen map[string]bool) {
	t.Helper()
	data := snap[p]
	type term struct {
		at        int64
		payload   []byte
		indexSize int64 // body size recorded beside the term, -1 if none
		persist   int   // persistence recorded beside the term: 1, 0, or -1 if none
	}
	var terms []term
	b2i := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	switch {
	case strings.HasSuffix(p, ExtMsgStore):
		f, _ := DecodeMsgFile(p, data)
		for _, e := range f.Entries {
			terms = append(terms, term{e.Offset + 24, e.Payload, -1, -1})
		}
	case strings.HasSuffix(p, ExtQueueStore):
		q, _ := DecodeQueueStore(p, data)
		for _, e := range q.Entries {
			terms = append(terms, term{e.Offset + 8, e.Payload, -1, -1})
		}
	case strings.HasSuffix(p, ExtIndexV2):
		seg, _ := DecodeIndexSegment(p, data)
		for _, s := range seg.Slots {
			if !s.Present() {
				continue
			}
			var payload []byte
			var at int64
			switch s.Entry.Location.Kind {
			case LocQueueStore:
				qsName := path.Join(path.Dir(p), SegmentFileName(s.SeqID/SegmentEntryCount, ExtQueueStore))
				qs, _ := DecodeQueueStore(qsName, snap[qsName])
				qe, ok := qs.EntryAt(s.Entry.Location.Offset)
				if !ok {
					t.Errorf("%s: seq %d: no .qs entry at %d", p, s.SeqID, s.Entry.Location.Offset)
					continue
				}
				if qe.Size != s.Entry.Location.Size {
					t.Errorf("%s: seq %d: location size %d, .qs entry size %d", p, s.SeqID, s.Entry.Location.Size, qe.Size)
				}
				payload, at = qe.Payload, qe.Offset+8
			case LocMsgStore:
				found := false
				for _, rp := range snap.paths() {
					if !strings.HasSuffix(rp, ExtMsgStore) {
						continue
					}
					f, _ := DecodeMsgFile(rp, snap[rp])
					for _, e := range f.Entries {
						if e.MsgID == s.Entry.Location.MsgID {
							payload, at, found = e.Payload, e.Offset+24, true
						}
					}
				}
				if !found {
					// Transient lazy queues: the body was still in the
					// store's write buffer. Check what the index holds.
					if c.Name != "transient-lazy-v2" || s.Entry.Persistent() {
						t.Errorf("%s: seq %d: id %s in no .rdq", p, s.SeqID, s.Entry.Location.MsgID)
					}
					continue
				}
			}
			terms = append(terms, term{at, payload, int64(s.Entry.Size), b2i(s.Entry.Persistent())})
		}
	case path.Base(p) == JournalName:
		j, _ := DecodeJournal(p, data)
		for _, r := range j.Records {
			if r.Kind.IsPublish() && len(r.Pub.Embedded) > 0 {
				terms = append(terms, term{r.Offset + 40, r.Pub.Embedded, int64(r.Pub.Size), b2i(r.Kind == JournalPublishPersistent)})
			}
		}
	case strings.HasSuffix(p, ExtIndexV1):
		s, _ := DecodeIdxSegment(p, data)
		for _, r := range s.Records {
			if r.Kind == IdxPublish && len(r.Pub.Embedded) > 0 {
				terms = append(terms, term{r.Offset + 34, r.Pub.Embedded, int64(r.Pub.Size), b2i(r.Persistent)})
			}
		}
	}
	for _, tm := range terms {
		m, err := DecodeMessage(p, tm.at, tm.payload)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		n := messageNumber(c, m)
		if n < 0 {
			t.Errorf("%s@%d: message %s is not in CASE.md", p, tm.at, m.ID)
			continue
		}
		cm := c.Messages[n]
		seen[m.ID.String()] = true
		where := p + "@" + strconv.FormatInt(tm.at, 10)
		if cm.ID != "" && cm.ID != m.ID.String() {
			t.Errorf("%s: message #%d has id %s, CASE.md says %s", where, n, m.ID, cm.ID)
		}
		if !bytes.Equal(m.Payload(), cm.Body) {
			t.Errorf("%s: message #%d body differs from CASE.md", where, n)
		}
		if m.Persistent != (cm.DeliveryMode == 2) || m.Properties.DeliveryMode != uint8(cm.DeliveryMode) {
			t.Errorf("%s: message #%d persistent=%t delivery_mode=%d, CASE.md says delivery_mode %d", where, n, m.Persistent, m.Properties.DeliveryMode, cm.DeliveryMode)
		}
		if hasPrio := m.Properties.Has(FlagPriority); hasPrio != (cm.Priority >= 0) || (hasPrio && int(m.Properties.Priority) != cm.Priority) {
			t.Errorf("%s: message #%d priority (set %t, %d), CASE.md says %d", where, n, hasPrio, m.Properties.Priority, cm.Priority)
		}
		if m.Exchange != cm.Exchange || len(m.RoutingKeys) != 1 || m.RoutingKeys[0] != cm.RoutingKey || m.VHost != "/" {
			t.Errorf("%s: message #%d exchange %q keys %q vhost %q", where, n, m.Exchange, m.RoutingKeys, m.VHost)
		}
		props, _ := EncodeProperties(m.Properties)
		wantLen := 158 + len(cm.Body) + len(cm.Exchange) + len(cm.RoutingKey) + len(props)
		if !m.Persistent {
			wantLen++
		}
		if len(tm.payload) != wantLen {
			t.Errorf("%s: message #%d term is %d bytes, the length formula gives %d", where, n, len(tm.payload), wantLen)
		}
		if tm.indexSize >= 0 && tm.indexSize != int64(len(cm.Body)) {
			t.Errorf("%s: message #%d indexed with body size %d, body is %d bytes", where, n, tm.indexSize, len(cm.Body))
		}
		if tm.persist >= 0 && (tm.persist == 1) != m.Persistent {
			t.Errorf("%s: message #%d index persistence %d, term says %t", where, n, tm.persist, m.Persistent)
		}
	}
}
