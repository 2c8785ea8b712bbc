package format

import (
	"errors"
	"fmt"
)

// Kinds of decode failure; a *DecodeError wraps exactly one of them, so
// callers can tell a torn tail (ErrTruncated) from corruption.
var (
	// ErrTruncated means the data ends inside a header or record.
	ErrTruncated = errors.New("truncated")
	// ErrBadMagic means a file header does not start with the expected magic.
	ErrBadMagic = errors.New("bad magic")
	// ErrBadVersion means a file header has an unsupported version.
	ErrBadVersion = errors.New("bad version")
	// ErrMalformed means a field holds a value the format does not allow.
	ErrMalformed = errors.New("malformed")
)

// DecodeError reports where and why decoding failed.
type DecodeError struct {
	File   string // the file name given to the decoder
	Offset int64  // byte offset in the file where the bad header or record starts
	Kind   error  // ErrTruncated, ErrBadMagic, ErrBadVersion or ErrMalformed
	Msg    string // what was wrong, for people
}

// Error returns "FILE: offset N: MSG".
func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Msg)
}

// Unwrap returns the kind, for errors.Is.
func (e *DecodeError) Unwrap() error { return e.Kind }

func decodeErr(file string, off int64, kind error, format string, args ...any) *DecodeError {
	return &DecodeError{File: file, Offset: off, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
