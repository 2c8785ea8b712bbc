package format

import "fmt"

// MsgID is a 16-byte message id (a GUID RabbitMQ assigns on publish).
type MsgID [16]byte

// String returns the id as 32 lower-case hex digits.
func (id MsgID) String() string { return Hex(id[:]) }

// Hex returns b as lower-case hex digits, two a byte. (encoding/hex would
// do, at a cost to the browser's build that its two uses here do not
// need.)
func Hex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// unhex is the value of hex digit c, or -1.
func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// IsZero reports whether every byte of the id is zero.
func (id MsgID) IsZero() bool { return id == MsgID{} }

// ParseMsgID parses 32 hex digits.
func ParseMsgID(s string) (MsgID, error) {
	var id MsgID
	if len(s) != 32 {
		return id, fmt.Errorf("message id %q: want 32 hex digits", s)
	}
	for i := range id {
		hi, lo := unhex(s[2*i]), unhex(s[2*i+1])
		if hi < 0 || lo < 0 {
			return id, fmt.Errorf("message id %q: %q at %d is not a hex digit", s, s[2*i:2*i+2], 2*i)
		}
		id[i] = byte(hi<<4 | lo)
	}
	return id, nil
}
