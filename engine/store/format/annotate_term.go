package format

import "strconv"

// The spans of a stored message term (rabbit_basic's #basic_message{} as
// term_to_binary writes it): its names, properties, body and id, and the
// tags, lengths and atoms between them as one span each.

// termPart is a binary of the term, named.
type termPart struct {
	off        int64 // in the term
	bin        []byte
	name, role string
	value      Words
}

// term names the bytes of a stored message term at off.
func (a *annotator) term(off int64, b []byte) {
	if len(b) == 0 {
		return
	}
	parts, ok := termParts(b)
	if !ok {
		a.add(off, int64(len(b)), "files.f.term", "term", say("files.v.notMessage", num(int64(len(b)))))
		return
	}
	gap := say("files.v.termGap")
	a.add(off, 1, "files.f.termVersion", "term", say("files.v.termFormat"))
	at := int64(1)
	for _, p := range parts {
		if p.off > at {
			a.add(off+at, p.off-at, "files.f.term", "term", gap)
		}
		a.add(off+p.off, int64(len(p.bin)), p.name, p.role, p.value)
		at = p.off + int64(len(p.bin))
	}
	if at < int64(len(b)) {
		a.add(off+at, int64(len(b))-at, "files.f.term", "term", gap)
	}
}

// elems is the elements of a tuple or a list, or nil.
func elems(t Term) []Term {
	switch v := t.(type) {
	case Tuple:
		return v
	case List:
		return v
	}
	return nil
}

// termParts finds the binaries of a stored message term b, in the order
// of their offsets; ok is false when b is not one.
func termParts(b []byte) (parts []termPart, ok bool) {
	t, err := decodeTerm(b)
	rec, isTuple := t.(Tuple)
	if err != nil || !isTuple || len(rec) != 6 || rec[0] != Atom("basic_message") {
		return nil, false
	}
	bin := func(t Term, name, role string, words func([]byte) Words) {
		if v, ok := t.(Binary); ok && len(v) > 0 {
			// NB: a Binary is a slice of b (decodeTerm does not copy), so
			// the difference of their capacities is its offset in b.
			parts = append(parts, termPart{int64(cap(b) - cap(v)), v, name, role, words(v)})
		}
	}
	if res := elems(rec[1]); len(res) == 4 {
		bin(res[1], "files.f.vhost", "term", quoted)
		bin(res[3], "files.f.exchange", "term", quoted)
	}
	for _, k := range elems(rec[2]) {
		bin(k, "files.f.routingKey", "term", quoted)
	}
	if c := elems(rec[3]); len(c) == 6 {
		bin(c[3], "files.f.properties", "flags", propertyWords)
		for _, f := range elems(c[5]) {
			bin(f, "files.f.body", "body", bodyWords)
		}
	}
	bin(rec[4], "files.f.msgIdInTerm", "id", func(v []byte) Words { return word(Hex(v)) })
	// NB: a handful of parts, sorted by insertion: slices.SortFunc would
	// cost inspect.wasm 20 kB for them.
	for i := 1; i < len(parts); i++ {
		for j := i; j > 0 && parts[j].off < parts[j-1].off; j-- {
			parts[j], parts[j-1] = parts[j-1], parts[j]
		}
	}
	return parts, true
}

// propertyWords says what encoded properties hold: their flags, and the
// delivery mode and priority when set (content-type, content-encoding and
// headers before them are skipped by their lengths).
func propertyWords(x []byte) Words {
	if len(x) < 2 {
		return word(Hex(x))
	}
	flags := uint16(x[0])<<8 | uint16(x[1])
	said := func(rest string) Words { return say("files.v.properties", word("0x"+Hex(x[:2])), word(rest)) }
	at := 2
	for _, f := range [...]uint16{FlagContentType, FlagContentEncoding, FlagHeaders} {
		switch {
		case flags&f == 0:
			continue
		case f == FlagHeaders && at+4 <= len(x):
			at += 4 + int(uint32(x[at])<<24|uint32(x[at+1])<<16|uint32(x[at+2])<<8|uint32(x[at+3]))
		case f != FlagHeaders && at < len(x):
			at += 1 + int(x[at])
		default:
			return said("")
		}
		if at > len(x) {
			return said("")
		}
	}
	rest := ""
	for _, f := range [...]struct {
		flag uint16
		name string
	}{{FlagDeliveryMode, "delivery-mode"}, {FlagPriority, "priority"}} {
		if flags&f.flag != 0 && at < len(x) {
			rest += ", " + f.name + " " + strconv.Itoa(int(x[at]))
			at++
		}
	}
	return said(rest)
}

// bodyWords is a body's size and, when they are printable, its first
// bytes as text.
func bodyWords(x []byte) Words {
	head := x[:min(16, len(x))]
	for _, c := range head {
		if c < 0x20 || c > 0x7e {
			return say("files.v.body", num(int64(len(x))))
		}
	}
	text := strconv.Quote(string(head))
	if len(x) > len(head) {
		text += "..."
	}
	return say("files.v.bodyText", num(int64(len(x))), word(text))
}
