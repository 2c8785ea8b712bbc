package store

import (
	"fmt"

	"warren/engine/clone"
	"warren/engine/store/format"
)

// Models the client half of rabbit_msg_store (client_init/4, write/3, remove/2,
// client_delete_and_terminate/1) and the requests a queue sends to a store
// process.

// RegisterClient adds a client; confirms says the store must tell it when
// its writes are on disk (queues of durable queues on the persistent store).
func (s *MsgStore) RegisterClient(c ClientRef, confirms bool) {
	s.clients[c] = confirms
}

// ClientWrite is the client half of a write, run by the queue: it counts
// the write as in flight and caches the message so that it can be read
// before the store handles the write. No file is touched.
//
// NB: the cache keeps term's memory, not a copy: a message's term never
// changes once encoded (NewPublishedMsg makes a new one for each), and
// the caller must not change it after.
func (s *MsgStore) ClientWrite(c ClientRef, id format.MsgID, term []byte) {
	s.flying[flyKey{id, c}]++
	if e, ok := s.cache[id]; ok {
		e.count++
	} else {
		s.cache[id] = &cacheEntry{term: clone.SharedOf(term), count: 1}
	}
}

// ClientRemove is the client half of a remove, run by the queue.
func (s *MsgStore) ClientRemove(c ClientRef, ids []format.MsgID) {
	for _, id := range ids {
		s.flying[flyKey{id, c}]--
	}
}

// DeleteClient forgets a client whose queue was deleted; its pending
// confirms are dropped and clean.dot will not name it.
func (s *MsgStore) DeleteClient(c ClientRef) {
	delete(s.clients, c)
	delete(s.pending, c)
}

// StoreCall is a request a queue sends to a store process: the server half
// of a write or remove the queue issued, or the deletion of its client.
type StoreCall struct {
	Kind       CallKind
	Persistent bool // which store: msg_store_persistent or msg_store_transient
	Client     ClientRef
	IDs        []format.MsgID
}

// CallKind is the kind of a StoreCall.
type CallKind uint8

// Kinds of StoreCall.
const (
	// CallWrite asks the store to write (or count again) the ids.
	CallWrite CallKind = iota
	// CallRemove asks the store to drop one reference to each id.
	CallRemove
	// CallDeleteClient tells the store the client's queue was deleted.
	CallDeleteClient
)

// Handle runs the server half of a call.
func (s *MsgStore) Handle(call StoreCall) (StoreResult, error) {
	switch call.Kind {
	case CallWrite:
		var res StoreResult
		for _, id := range call.IDs {
			r, err := s.HandleWrite(call.Client, id)
			res.IO.Add(r.IO)
			res.Confirms = append(res.Confirms, r.Confirms...)
			if err != nil {
				return res, err
			}
		}
		return res, nil
	case CallRemove:
		return s.HandleRemove(call.Client, call.IDs)
	case CallDeleteClient:
		s.DeleteClient(call.Client)
		return StoreResult{}, nil
	}
	return StoreResult{}, fmt.Errorf("%s: unknown call kind %d", s.dir, call.Kind)
}

// Write is ClientWrite and HandleWrite at once, for callers that do not
// model the store as a separate process.
func (s *MsgStore) Write(c ClientRef, id format.MsgID, term []byte) (StoreResult, error) {
	s.ClientWrite(c, id, term)
	return s.HandleWrite(c, id)
}

// Remove is ClientRemove and HandleRemove at once.
func (s *MsgStore) Remove(c ClientRef, ids []format.MsgID) (StoreResult, error) {
	s.ClientRemove(c, ids)
	return s.HandleRemove(c, ids)
}
