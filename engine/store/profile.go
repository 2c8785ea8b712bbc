package store

import (
	"fmt"

	"warren/engine/store/format"
)

// Versions a Profile can model.
const (
	Version310 = "3.10"
	Version313 = "3.13"
)

// Profile selects the RabbitMQ behaviour the store models and its tunables.
// The zero value is not valid; start from Profile310 or Profile313.
type Profile struct {
	// Version is "3.10" (the shared store fsyncs before confirming and
	// compacts by merging pairs of files) or "3.13" (it only writes to the
	// OS before confirming and compacts files in place). Queue indexes and
	// the per-queue store behave as in 3.10 in both.
	Version string
	// VHost is the vhost name; its directory is VHostDirName(VHost).
	VHost string
	// FileSizeLimit is msg_store_file_size_limit: the shared store rolls to
	// a new .rdq file once an append reaches it. Lessons use small limits.
	FileSizeLimit int64
	// V1SegmentEntryCount is queue_index_segment_entry_count, written to
	// .config when the vhost is created.
	V1SegmentEntryCount int
	// V2SegmentEntryCount is classic_queue_index_v2_segment_entry_count, the
	// seq ids per .qi and .qs file.
	V2SegmentEntryCount int
	// EmbedBelow is queue_index_embed_msgs_below: bodies (and estimates)
	// under it stay with the queue (v1: in the index, v2: in the .qs).
	EmbedBelow int
	// MaxJournalEntries is queue_index_max_journal_entries: the v1 journal
	// is flushed into segments once it holds more dirty entries.
	MaxJournalEntries int
	// QueueStoreBufferSize and QueueStoreBufferDelay are the delayed_write
	// options of the v2 per-queue store (bytes, milliseconds).
	QueueStoreBufferSize  int
	QueueStoreBufferDelay int64
	// QueueStoreCacheSize is classic_queue_store_v2_max_cache_size, the
	// payload bytes the per-queue store keeps for reads.
	QueueStoreCacheSize int
	// MsgStoreBufferSize is the file_handle_cache write buffer of the
	// shared store's current file.
	MsgStoreBufferSize int
	// CheckCRC is classic_queue_store_v2_check_crc32.
	CheckCRC bool
}

// Profile310 returns the defaults of RabbitMQ 3.10.8 for vhost "/".
func Profile310() Profile {
	return Profile{
		Version:               Version310,
		VHost:                 "/",
		FileSizeLimit:         format.MsgFileSizeLimit,
		V1SegmentEntryCount:   format.DefaultV1SegmentEntryCount,
		V2SegmentEntryCount:   format.SegmentEntryCount,
		EmbedBelow:            4096,
		MaxJournalEntries:     32768,
		QueueStoreBufferSize:  512000,
		QueueStoreBufferDelay: 10000,
		QueueStoreCacheSize:   512000,
		MsgStoreBufferSize:    1048576,
		CheckCRC:              true,
	}
}

// Profile313 returns Profile310 with the shared store of 3.13.7: no fsync
// before confirms and in-place compaction.
func Profile313() Profile {
	p := Profile310()
	p.Version = Version313
	return p
}

// check reports the first setting that cannot work.
func (p Profile) check() error {
	switch {
	case p.Version != Version310 && p.Version != Version313:
		return fmt.Errorf("profile: version %q, want %q or %q", p.Version, Version310, Version313)
	case p.FileSizeLimit <= 0:
		return fmt.Errorf("profile: file size limit %d must be positive", p.FileSizeLimit)
	case p.V1SegmentEntryCount <= 0 || p.V1SegmentEntryCount > format.MaxRelSeq+1:
		return fmt.Errorf("profile: v1 segment entry count %d must be in 1..%d", p.V1SegmentEntryCount, format.MaxRelSeq+1)
	case p.V2SegmentEntryCount <= 0 || p.V2SegmentEntryCount > 1<<24:
		return fmt.Errorf("profile: v2 segment entry count %d must be in 1..%d", p.V2SegmentEntryCount, 1<<24)
	case p.EmbedBelow < 0 || p.MaxJournalEntries < 0:
		return fmt.Errorf("profile: embed threshold %d and journal limit %d must not be negative", p.EmbedBelow, p.MaxJournalEntries)
	case p.QueueStoreBufferSize <= 0 || p.MsgStoreBufferSize <= 0:
		return fmt.Errorf("profile: buffer sizes %d and %d must be positive", p.QueueStoreBufferSize, p.MsgStoreBufferSize)
	}
	return nil
}

// fsyncBeforeConfirm reports whether the shared store fsyncs its current
// file before confirming (3.10) or only hands the data to the OS (3.13).
func (p Profile) fsyncBeforeConfirm() bool { return p.Version == Version310 }

// inPlaceCompaction reports whether the shared store compacts files in
// place (3.13) instead of merging neighbours (3.10).
func (p Profile) inPlaceCompaction() bool { return p.Version == Version313 }
