package format

import (
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the annotation as the Files view draws it (site/
// static/widget/files.js): {"kind", "read" (the bytes annotated),
// "fields": [{"off", "len", "name", "value", "role", "entry", "head",
// "tail"}], "entries": [{"off", "len", "label", "state", "seq", "msg",
// "qsOffset"}], "total", "stop"}. Words are a string said as it is, or
// {"key", "args"}, the arguments words again; stop is "" when the read
// reached the end. A field carries its bytes in hex as head, whole up to
// 64 bytes, else its first 32 with its last 16 as tail.
//
// NB: the browser's bridge and inspect.wasm both send this; the engine's
// encoder (engine/jsonenc) cannot be linked into inspect.wasm, and
// encoding/json costs the browser's build more than this does.
func (a *Annotation) AppendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendJSONString(b, a.Kind)
	b = append(b, `,"read":`...)
	b = strconv.AppendInt(b, a.Size, 10)
	b = append(b, `,"fields":[`...)
	for i, s := range a.Spans {
		if i > 0 {
			b = append(b, ',')
		}
		head, tail := s.Bytes, []byte(nil)
		if len(head) > 64 {
			head, tail = head[:32], head[len(head)-16:]
		}
		b = appendJSONInts(b, `{"off":`, s.Off, s.Len)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, s.Name)
		b = append(b, `,"value":`...)
		b = s.Value.appendJSON(b)
		b = append(b, `,"role":`...)
		b = appendJSONString(b, s.Role)
		b = append(b, `,"entry":`...)
		b = strconv.AppendInt(b, int64(s.Entry), 10)
		b = append(b, `,"head":"`...)
		b = append(b, Hex(head)...)
		b = append(b, `","tail":"`...)
		b = append(b, Hex(tail)...)
		b = append(b, `"}`...)
	}
	b = append(b, `],"entries":[`...)
	for i, e := range a.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONInts(b, `{"off":`, e.Off, e.Len)
		b = append(b, `,"label":`...)
		b = e.Label.appendJSON(b)
		b = append(b, `,"state":`...)
		b = appendJSONString(b, e.State)
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, e.Seq, 10)
		b = append(b, `,"msg":`...)
		b = appendJSONString(b, e.MsgID)
		b = append(b, `,"qsOffset":`...)
		b = strconv.AppendInt(b, e.QSOffset, 10)
		b = append(b, '}')
	}
	b = append(b, `],"total":`...)
	b = strconv.AppendInt(b, int64(a.Total), 10)
	b = append(b, `,"stop":`...)
	b = a.Stop.appendJSON(b)
	return append(b, '}')
}

// appendJSONInts appends start, off, then ,"len": n.
func appendJSONInts(b []byte, start string, off, n int64) []byte {
	b = append(b, start...)
	b = strconv.AppendInt(b, off, 10)
	b = append(b, `,"len":`...)
	return strconv.AppendInt(b, n, 10)
}

func (w Words) appendJSON(b []byte) []byte {
	if w.Key == "" {
		return appendJSONString(b, w.Word)
	}
	b = append(b, `{"key":`...)
	b = appendJSONString(b, w.Key)
	b = append(b, `,"args":[`...)
	for i, x := range w.Args {
		if i > 0 {
			b = append(b, ',')
		}
		b = x.appendJSON(b)
	}
	return append(b, "]}"...)
}

// appendJSONString appends s as a JSON string, as encoding/json writes it
// (less its escaping of <, > and &, which no browser needs), invalid
// UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		case c < utf8.RuneSelf:
			b = append(b, c)
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
			continue
		}
		i++
	}
	return append(b, '"')
}
