package format

import (
	"hash/crc32"
	"testing"
)

// TestCRC16IsCRC32sLowBits: the queue store's CRC is the low 16 bits of
// CRC-32 (IEEE), as hash/crc32 computes it.
func TestCRC16IsCRC32sLowBits(t *testing.T) {
	for _, p := range []string{"", "a", "hello, queue", string(make([]byte, 4096)), "\xff\x00\x83h\x06d\x00\x0fbasic_message"} {
		if got, want := CRC16([]byte(p)), uint16(crc32.ChecksumIEEE([]byte(p))); got != want {
			t.Errorf("CRC16(%q) = %#04x, want %#04x", p, got, want)
		}
	}
}
