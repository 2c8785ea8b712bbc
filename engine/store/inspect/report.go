package inspect

import (
	"warren/engine/store/format"
)

// Report is what a vhost folder holds.
type Report struct {
	VHost    string // content of .vhost; "" when the file is missing
	HasVHost bool
	// SegmentEntryCount is the v1 segment size from .config, or the legacy
	// 16384 when .config is missing (HasConfig false).
	SegmentEntryCount int
	HasConfig         bool
	Queues            []Queue
	Stores            []Store
	Other             []File // files the report does not decode
	Problems          []Problem
}

// Problem is a file that could not be read or decoded completely.
type Problem struct {
	File string // path relative to the vhost folder
	Err  error  // names the file and, for decode errors, the byte offset
}

// File is a file's path, relative to the vhost folder, and size.
type File struct {
	Path string
	Size int64
}

// Queue is one directory under queues/.
type Queue struct {
	Dir       string // "queues/<id>"
	Name      string // from .queue_name; may hold any bytes
	VHost     string
	HasName   bool // .queue_name was found and decoded
	DirNameOK bool // Dir is the name RabbitMQ derives from VHost and Name
	// Priority is the level of a priority sub-queue (Name ends in 0x00 P), or
	// -1; Parent is then the name of the priority queue.
	Priority int
	Parent   string
	// IndexVersion is 2 when .qi or .qs files are present, 1 when .idx or
	// journal.jif files are, else what .queue_name says; 0 when unknown.
	IndexVersion int
	Files        []FileInfo
	Entries      []Entry

	nameVersion int // what .queue_name says: 2 with "INDEX: v2", else 1
}

// FileInfo summarises one file of a queue directory.
type FileInfo struct {
	File
	Summary string // e.g. "segment 0 (seq 0..4095), 25 slots"
}

// Where says where an entry's body lives.
type Where uint8

// Places a body can live.
const (
	InQueueStore Where = iota // the queue's own .qs file (v2)
	InMsgStore                // the vhost's shared store (.rdq)
	Embedded                  // inside the v1 index record
	InMemory                  // only in memory; lost on restart (v2 location 0)
)

// State is what the index files say about an entry.
type State uint8

// Entry states.
const (
	// Present is a v2 slot with status 1 (v2 keeps no delivery state on disk).
	Present State = iota
	// Published is a v1 publish record without a deliver record.
	Published
	// Delivered is a v1 publish followed by a deliver record (3.10 writes it at
	// publish time).
	Delivered
	// Acked is a v1 ack record, or a v2 slot whose status byte is 0.
	Acked
	// Empty is a v2 slot of 32 zero bytes (acked, or never written).
	Empty
)

// String names the state as the report prints it.
func (s State) String() string {
	switch s {
	case Present:
		return "unacked"
	case Published:
		return "published"
	case Delivered:
		return "delivered"
	case Acked:
		return "acked"
	case Empty:
		return "empty"
	}
	return "unknown"
}

// Live reports whether the entry still holds its message.
func (s State) Live() bool { return s == Present || s == Published || s == Delivered }

// Entry is one seq id of a queue.
type Entry struct {
	SeqID      uint64
	Source     string // where the index record is: "0.qi@64", "journal.jif@306"
	State      State
	Persistent bool
	Where      Where
	QSFile     string // InQueueStore: the .qs file name
	QSOffset   uint64 // InQueueStore: offset of the .qs entry
	MsgID      format.MsgID
	HasMsgID   bool
	Size       uint32 // body size recorded in the index
	Expiry     uint64 // microseconds since the epoch; 0 = none
	// StoreFile is where the body was found in a shared store, as
	// "msg_store_persistent/0.rdq@0".
	StoreFile string
	Body      []byte // nil when the body is not on disk
	Note      string // why the body is missing, or what is odd about it
}

// Store is one shared message store directory.
type Store struct {
	Dir   string // "msg_store_persistent" or "msg_store_transient"
	Files []StoreFile
	Other []File // index and recovery files, .rdt leftovers
}

// StoreFile is one scanned .rdq file.
type StoreFile struct {
	Path    string
	Size    int64
	End     int64 // where the scan stopped
	Stop    format.ScanStop
	Entries []StoreEntry
}

// StoreEntry is one entry of an .rdq file.
type StoreEntry struct {
	Offset int64
	Size   uint64 // the entry's size field (16 + term)
	MsgID  format.MsgID
	Valid  bool // ends with the write-OK marker
	// Refs counts the live index entries that point at the id: an entry is
	// live when Refs > 0, dead (garbage) otherwise.
	Refs int
	Body []byte
	Note string
}

// Live reports whether some live queue index entry references the entry.
func (e StoreEntry) Live() bool { return e.Valid && e.Refs > 0 }
