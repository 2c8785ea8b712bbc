package store

import (
	"fmt"

	"warren/engine/store/format"
)

// Models rabbit_variable_queue:determine_persist_to/4 and the decision of
// maybe_write_msg_to_disk/4 whether a message is written at all.

// PublishedMsg is a message as the queue hands it to its storage.
type PublishedMsg struct {
	ID format.MsgID
	// Term is the stored message (format.Message.Encode): what a .qs entry,
	// a .rdq entry or an embedded v1 index record holds.
	Term []byte
	// BodySize is the payload size; it is recorded in the index and drives
	// where the message goes.
	BodySize int
	// PropsSize is the size of the encoded properties (properties_bin), or
	// 100 per header when the message came decoded (direct clients).
	PropsSize  int
	Persistent bool   // delivery mode 2
	Expiry     uint64 // absolute expiry in microseconds; 0 = none
	// NeedsConfirm says a publisher waits for a confirm of this message.
	NeedsConfirm bool
}

// headerGuessSize is ?HEADER_GUESS_SIZE: what each header adds to the size
// estimate of a message whose properties are not encoded.
const headerGuessSize = 100

// NewPublishedMsg encodes m and measures it. expiry is in microseconds
// since the epoch (0 = none); confirm says the publisher asked for a confirm.
func NewPublishedMsg(m *format.Message, expiry uint64, confirm bool) (PublishedMsg, error) {
	term, props, err := m.EncodeSized()
	if err != nil {
		return PublishedMsg{}, err
	}
	if m.PropertiesRecord {
		props = len(m.Properties.Headers) * headerGuessSize
	}
	return PublishedMsg{
		ID:           m.ID,
		Term:         term,
		BodySize:     m.PayloadSize(),
		PropsSize:    props,
		Persistent:   m.Persistent,
		Expiry:       expiry,
		NeedsConfirm: confirm,
	}, nil
}

// Placement says where a message's body lives.
type Placement uint8

// Placements.
const (
	// InMemory: nothing is written (a transient message, or any message to
	// a non-durable queue that is not lazy).
	InMemory Placement = iota
	// InQueueIndex: embedded in the v1 index record.
	InQueueIndex
	// InQueueStore: in the v2 queue's own .qs file.
	InQueueStore
	// InSharedStore: in the vhost's shared store (.rdq), persistent or
	// transient.
	InSharedStore
)

// String names the placement.
func (p Placement) String() string {
	switch p {
	case InMemory:
		return "memory"
	case InQueueIndex:
		return "queue index"
	case InQueueStore:
		return "queue store"
	case InSharedStore:
		return "shared store"
	}
	return fmt.Sprintf("placement(%d)", uint8(p))
}

// PersistTo returns where a written message's body goes for an index
// version (1 or 2): with the queue when both the body and the body plus
// properties are under embedBelow, else to the shared store. An embedBelow
// of 0 sends everything to the shared store.
func PersistTo(version, bodySize, propsSize, embedBelow int) Placement {
	if bodySize >= embedBelow || bodySize+propsSize >= embedBelow {
		return InSharedStore
	}
	if version == 1 {
		return InQueueIndex
	}
	return InQueueStore
}

// placementOf returns where a queue writes msg, and whether it writes it
// at all: a message is written when it is persistent and the queue durable,
// or when the queue is lazy.
func placementOf(opts QueueOptions, msg PublishedMsg, embedBelow int) (Placement, bool) {
	persistent := opts.Durable && msg.Persistent
	if !persistent && !opts.Lazy {
		return InMemory, false
	}
	return PersistTo(opts.Version, msg.BodySize, msg.PropsSize, embedBelow), persistent
}
