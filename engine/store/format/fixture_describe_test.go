package format

import (
	"bytes"
	"fmt"
	"path"
	"sort"
	"strings"
)

// This file regenerates, from this package's decoders, the "Decoded" text
// that each CASE.md shows for a snapshot, so that a test can require every
// line CASE.md lists to appear verbatim.

// snapshot holds the files of one fixture snapshot, by relative path.
type snapshot map[string][]byte

func (s snapshot) paths() []string {
	out := make([]string, 0, len(s))
	for p := range s {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// describeFile returns the indented lines for one file of a snapshot.
func describeFile(c *fixtureCase, snap snapshot, p string) ([]string, error) {
	data := snap[p]
	base := path.Base(p)
	var out []string
	add := func(format string, args ...any) { out = append(out, "  "+fmt.Sprintf(format, args...)) }
	if len(data) == 0 && base != QueueNameFile {
		add("(empty)")
		return out, nil
	}
	switch {
	case base == VHostConfig || base == VHostFile:
		add("content: %q", data)
	case base == QueueNameFile:
		add("content: %q", data)
		q, err := DecodeQueueName(p, data)
		if err != nil {
			return nil, err
		}
		dir := path.Base(path.Dir(p))
		ok := "ok"
		if QueueDirName(q.VHost, q.Queue) != dir {
			ok = "MISMATCH"
		}
		add("directory name = base36(md5(\"queue\" ++ %q ++ %q)) = %s: %s", q.VHost, q.Queue, QueueDirName(q.VHost, q.Queue), ok)
	case strings.HasSuffix(base, ExtMsgStore):
		f, err := DecodeMsgFile(p, data)
		if err != nil {
			return nil, err
		}
		add("%d entries; the last one ends at byte %d (file size %d)", len(f.Entries), f.End, len(data))
		for _, e := range f.Entries {
			sum, err := summarise(c, p, e.Offset+24, e.Payload)
			if err != nil {
				return nil, err
			}
			add("@%d: size=%d (16-byte id + %d-byte term) id=%s marker=0x%02x %s", e.Offset, e.Size, len(e.Payload), e.MsgID, e.Marker, sum)
		}
	case strings.HasSuffix(base, ExtQueueStore):
		q, err := DecodeQueueStore(p, data)
		if err != nil {
			return nil, err
		}
		add("%s", headerLine(q.Header, data))
		end := int64(HeaderSize)
		if n := len(q.Entries); n > 0 {
			end = q.Entries[n-1].Offset + QSEntryHeaderSize + int64(q.Entries[n-1].Size)
		}
		add("%d entries; the last one ends at byte %d (file size %d)", len(q.Entries), end, len(data))
		for _, e := range q.Entries {
			sum, err := summarise(c, p, e.Offset+QSEntryHeaderSize, e.Payload)
			if err != nil {
				return nil, err
			}
			ok := "ok"
			if !e.CRCOK {
				ok = "BAD"
			}
			add("@%d: size=%d flags=0x%02x crc16=0x%04x unused=%d (= low 16 bits of CRC-32(term): %s) %s", e.Offset, e.Size, e.Flags, e.CRC16, e.Unused, ok, sum)
		}
	case strings.HasSuffix(base, ExtIndexV2):
		seg, err := DecodeIndexSegment(p, data)
		if err != nil {
			return nil, err
		}
		add("%s", headerLine(seg.Header, data))
		entries, zero := 0, 0
		for _, s := range seg.Slots {
			if s.Present() {
				entries++
			}
			if s.Zero {
				zero++
			}
		}
		add("%d slots in the file (= (size-64)/32): %d entries, %d all-zero", len(seg.Slots), entries, zero)
		for _, s := range seg.Slots {
			line, err := describeSlot(c, snap, p, s)
			if err != nil {
				return nil, err
			}
			add("%s", line)
		}
	case base == JournalName:
		j, err := DecodeJournal(p, data)
		if err != nil {
			return nil, err
		}
		counts := map[JournalKind]int{}
		for _, r := range j.Records {
			counts[r.Kind]++
		}
		add("records: %d publish(persistent), %d publish(transient), %d deliver, %d ack; end at byte %d (file size %d)",
			counts[JournalPublishPersistent], counts[JournalPublishTransient], counts[JournalDeliver], counts[JournalAck], j.End, len(data))
		for _, r := range j.Records {
			if !r.Kind.IsPublish() {
				add("@%d: %s seq=%d (8 bytes)", r.Offset, r.Kind, r.SeqID)
				continue
			}
			line, err := describePub(c, p, r.Offset+8+32, r.Pub)
			if err != nil {
				return nil, err
			}
			add("@%d: %s seq=%d %s", r.Offset, r.Kind, r.SeqID, line)
		}
	case strings.HasSuffix(base, ExtIndexV1):
		s, err := DecodeIdxSegment(p, data)
		if err != nil {
			return nil, err
		}
		pubs := 0
		for _, r := range s.Records {
			if r.Kind == IdxPublish {
				pubs++
			}
		}
		add("%d publish records (34 bytes + embedded term), %d deliver/ack records (2 bytes: bits 01 + 14-bit rel seq; the first for a rel seq is the deliver, the second the ack); end at byte %d (file size %d)",
			pubs, len(s.Records)-pubs, len(data), len(data))
		for _, r := range s.Records {
			if r.Kind != IdxPublish {
				add("@%d: %s rel_seq=%d", r.Offset, r.Kind, r.RelSeq)
				continue
			}
			persistent := 0
			if r.Persistent {
				persistent = 1
			}
			line, err := describePub(c, p, r.Offset+2+32, r.Pub)
			if err != nil {
				return nil, err
			}
			add("@%d: publish persistent=%d rel_seq=%d %s", r.Offset, persistent, r.RelSeq, line)
		}
	default:
		return nil, fmt.Errorf("%s: no decoder for this file", p)
	}
	return out, nil
}

func headerLine(h SegmentHeader, data []byte) string {
	return fmt.Sprintf("header: magic=%q version=%d first_seq=%d end_seq=%d bytes 21..63 zero=%t",
		magicText(h.Magic), h.Version, h.FirstSeq, h.EndSeq, allZero(data[21:HeaderSize]))
}

func describePub(c *fixtureCase, p string, termAt int64, pub PubRecord) (string, error) {
	s := fmt.Sprintf("id=%s expiry=%d body_size=%d embedded_len=%d", pub.MsgID, pub.Expiry, pub.Size, len(pub.Embedded))
	if len(pub.Embedded) == 0 {
		return s, nil
	}
	sum, err := summarise(c, p, termAt, pub.Embedded)
	if err != nil {
		return "", err
	}
	return s + " embedded: " + sum, nil
}

func describeSlot(c *fixtureCase, snap snapshot, p string, s IndexSlot) (string, error) {
	if s.Zero {
		return fmt.Sprintf("seq %d: 32 zero bytes (no entry, or acked)", s.SeqID), nil
	}
	e := s.Entry
	head := fmt.Sprintf("seq %d: status=%d flags=0x%02x(persistent=%t) unused=0", s.SeqID, e.Status, e.Flags, e.Persistent())
	tail := fmt.Sprintf("body_size=%d expiry=%d", e.Size, e.Expiry)
	switch e.Location.Kind {
	case LocQueueStore:
		qsName := path.Join(path.Dir(p), SegmentFileName(s.SeqID/SegmentEntryCount, ExtQueueStore))
		qs, err := DecodeQueueStore(qsName, snap[qsName])
		if err != nil {
			return "", err
		}
		qe, ok := qs.EntryAt(e.Location.Offset)
		if !ok {
			return "", fmt.Errorf("%s: seq %d points at %s@%d, where no entry starts", p, s.SeqID, qsName, e.Location.Offset)
		}
		m, err := DecodeMessage(qsName, qe.Offset+QSEntryHeaderSize, qe.Payload)
		if err != nil {
			return "", err
		}
		n := messageNumber(c, m)
		if n < 0 {
			return "", fmt.Errorf("%s: message %s matches no CASE.md message", qsName, m.ID)
		}
		return fmt.Sprintf("%s location=2 (per-queue store) offset=%d size=%d -> %s@%d #%d %q… id=%s %s",
			head, e.Location.Offset, e.Location.Size, path.Base(qsName), qe.Offset, n, c.Messages[n].Prefix, m.ID, tail), nil
	case LocMsgStore:
		where := "not in any .rdq of this snapshot"
		for _, rp := range snap.paths() {
			if !strings.HasSuffix(rp, ExtMsgStore) {
				continue
			}
			f, err := DecodeMsgFile(rp, snap[rp])
			if err != nil {
				return "", err
			}
			for _, me := range f.Entries {
				if me.MsgID == e.Location.MsgID {
					m, err := DecodeMessage(rp, me.Offset+24, me.Payload)
					if err != nil {
						return "", err
					}
					n := messageNumber(c, m)
					if n < 0 {
						return "", fmt.Errorf("%s: message %s matches no CASE.md message", rp, m.ID)
					}
					where = fmt.Sprintf("%s@%d #%d %q…", rp, me.Offset, n, c.Messages[n].Prefix)
				}
			}
		}
		return fmt.Sprintf("%s location=1 (shared msg store) id=%s -> %s %s", head, e.Location.MsgID, where, tail), nil
	}
	return fmt.Sprintf("%s location=0 (memory) %s", head, tail), nil
}

// summarise describes a stored message term the way CASE.md does.
func summarise(c *fixtureCase, p string, at int64, term []byte) (string, error) {
	m, err := DecodeMessage(p, at, term)
	if err != nil {
		return "", err
	}
	n := messageNumber(c, m)
	if n < 0 {
		return "", fmt.Errorf("%s@%d: message %s matches no CASE.md message", p, at, m.ID)
	}
	bin, err := EncodeProperties(m.Properties)
	if err != nil {
		return "", err
	}
	prio := "priority absent"
	if m.Properties.Has(FlagPriority) {
		prio = fmt.Sprintf("priority=%d", m.Properties.Priority)
	}
	keys := make([]string, len(m.RoutingKeys))
	for i, k := range m.RoutingKeys {
		keys[i] = fmt.Sprintf("%q", k)
	}
	return fmt.Sprintf("#%d %q… body=%dB id=%s persistent=%t x=%q rk=[%s] properties_bin=%x (flags=0x%04x delivery_mode=%d %s)",
		n, c.Messages[n].Prefix, m.PayloadSize(), m.ID, m.Persistent, m.Exchange, strings.Join(keys, ","),
		bin, m.Properties.Present, m.Properties.DeliveryMode, prio), nil
}

// messageNumber finds the CASE.md message a decoded one is: by id, else by
// body.
func messageNumber(c *fixtureCase, m *Message) int {
	for _, cm := range c.Messages {
		if cm.ID == m.ID.String() {
			return cm.Index
		}
	}
	for _, cm := range c.Messages {
		if bytes.Equal(cm.Body, m.Payload()) {
			return cm.Index
		}
	}
	return -1
}
