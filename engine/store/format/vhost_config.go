package format

import (
	"bytes"
	"fmt"
)

// Models rabbit_vhost:write_config/2 and read_config/1.

// Segment entry counts of the v1 index.
const (
	// DefaultV1SegmentEntryCount is written for vhosts created on 3.8.17+
	// with no queues.
	DefaultV1SegmentEntryCount = 2048
	// LegacyV1SegmentEntryCount is used when .config is missing, or written
	// when the vhost already had queues.
	LegacyV1SegmentEntryCount = 16384
)

// EncodeVHostConfig returns the .config file RabbitMQ writes in a vhost
// directory (83 bytes for 2048; no final newline).
func EncodeVHostConfig(segmentEntryCount int) []byte {
	return []byte(fmt.Sprintf("%%%% This file is auto-generated! Edit at your own risk!\n{segment_entry_count, %d}.", segmentEntryCount))
}

// DecodeVHostConfig returns the v1 segment entry count a .config file sets
// with the term {segment_entry_count, N}.
func DecodeVHostConfig(file string, data []byte) (int, error) {
	key := []byte("segment_entry_count")
	i := bytes.Index(data, key)
	if i < 0 {
		return 0, decodeErr(file, 0, ErrMalformed, "no {segment_entry_count, N}. term")
	}
	p := i + len(key)
	skip := func() {
		for p < len(data) && (data[p] == ' ' || data[p] == '\t' || data[p] == '\n' || data[p] == '\r') {
			p++
		}
	}
	skip()
	if p >= len(data) || data[p] != ',' {
		return 0, decodeErr(file, int64(p), ErrMalformed, "expected ',' after segment_entry_count")
	}
	p++
	skip()
	start := p
	n := 0
	for p < len(data) && data[p] >= '0' && data[p] <= '9' && p-start < 6 {
		n = n*10 + int(data[p]-'0')
		p++
	}
	if p == start || n <= 0 || n > 1<<14 {
		return 0, decodeErr(file, int64(start), ErrMalformed, "segment_entry_count must be an integer in 1..16384")
	}
	skip()
	if p >= len(data) || data[p] != '}' {
		return 0, decodeErr(file, int64(p), ErrMalformed, "expected '}' after the segment entry count")
	}
	return n, nil
}
