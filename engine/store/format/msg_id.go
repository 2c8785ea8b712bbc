package format

import (
	"encoding/hex"
	"fmt"
)

// MsgID is a 16-byte message id (a GUID RabbitMQ assigns on publish).
type MsgID [16]byte

// String returns the id as 32 lower-case hex digits.
func (id MsgID) String() string { return hex.EncodeToString(id[:]) }

// IsZero reports whether every byte of the id is zero.
func (id MsgID) IsZero() bool { return id == MsgID{} }

// ParseMsgID parses 32 hex digits.
func ParseMsgID(s string) (MsgID, error) {
	var id MsgID
	if len(s) != 32 {
		return id, fmt.Errorf("message id %q: want 32 hex digits", s)
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, fmt.Errorf("message id %q: %v", s, err)
	}
	return id, nil
}
