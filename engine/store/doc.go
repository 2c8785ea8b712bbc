// Package store is the storage engine of a RabbitMQ 3.10.8 node as plain
// state machines over a vfs.FS: the vhost layout, the classic queue indexes
// (v1 journal and segments, v2 .qi segments), the v2 per-queue store (.qs),
// the shared message stores (.rdq) with their garbage collection, and the
// recovery of all of them, writing files byte for byte as RabbitMQ does.
//
// Nothing here runs by itself: there are no goroutines and no clocks. A
// caller (the simulated queue and msg_store processes) calls an operation,
// the operation does its file operations at once and returns what it did
// (Ops) so that the simulation can charge virtual time, and the caller
// decides when timers fire (Sync, Flush, Tick, GCStep).
package store
