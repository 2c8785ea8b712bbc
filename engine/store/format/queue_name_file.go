package format

import (
	"strings"
)

// Models the .queue_name stub of rabbit_queue_index and
// rabbit_classic_queue_index_v2.

// QueueName is the content of a queue directory's .queue_name file.
type QueueName struct {
	VHost   string
	Queue   string // may hold any bytes: priority sub-queues end in 0x00 P
	IndexV2 bool   // the file ends with "INDEX: v2"
}

// Encode returns the file content: "VHOST: v\nQUEUE: q\n" plus "INDEX: v2\n"
// for a v2 index.
func (q QueueName) Encode() []byte {
	s := "VHOST: " + q.VHost + "\nQUEUE: " + q.Queue + "\n"
	if q.IndexV2 {
		s += "INDEX: v2\n"
	}
	return []byte(s)
}

// DecodeQueueName parses a .queue_name file.
func DecodeQueueName(file string, data []byte) (QueueName, error) {
	var q QueueName
	s := string(data)
	var off int64
	next := func(prefix string) (string, error) {
		if !strings.HasPrefix(s, prefix) {
			return "", decodeErr(file, off, ErrMalformed, "expected %q", prefix)
		}
		nl := strings.IndexByte(s, '\n')
		if nl < 0 {
			return "", decodeErr(file, off, ErrTruncated, "line %q has no newline", prefix)
		}
		v := s[len(prefix):nl]
		off += int64(nl + 1)
		s = s[nl+1:]
		return v, nil
	}
	var err error
	if q.VHost, err = next("VHOST: "); err != nil {
		return q, err
	}
	// A queue name can hold a newline; the name runs to the newline that is
	// followed by the end of the file or by the INDEX line.
	if !strings.HasPrefix(s, "QUEUE: ") {
		return q, decodeErr(file, off, ErrMalformed, `expected "QUEUE: "`)
	}
	rest := s[len("QUEUE: "):]
	switch {
	case strings.HasSuffix(rest, "\nINDEX: v2\n"):
		q.Queue = strings.TrimSuffix(rest, "\nINDEX: v2\n")
		q.IndexV2 = true
	case strings.HasSuffix(rest, "\n"):
		q.Queue = strings.TrimSuffix(rest, "\n")
	default:
		return q, decodeErr(file, off, ErrTruncated, "queue name has no final newline")
	}
	return q, nil
}
