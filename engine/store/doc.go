// Package store is the storage engine of a RabbitMQ 3.10.8 node as plain
// state machines over a vfs.FS: the vhost layout, the classic queue indexes
// (v1 journal and segments, v2 .qi segments), the v2 per-queue store (.qs),
// the shared message stores (.rdq) with their garbage collection, and the
// recovery of all of them, writing files byte for byte as RabbitMQ does.
//
// Nothing here runs by itself: there are no goroutines and no clocks. A
// caller (the simulated queue and msg_store processes) calls an operation,
// the operation does its file operations at once and returns what it did
// (IO) so that the simulation can charge virtual time, and the caller
// decides when timers fire (Sync, Flush, Tick, GCStep).
//
// The pieces:
//
//   - OpenVHost lays out <root>/msg_stores/vhosts/<VHostDirName>/ and starts
//     the two shared stores (VHost.Store), recovering them after a restart.
//   - VHost.OpenQueue and VHost.RecoverQueue give a queue's QueueFiles:
//     Publish, Ack, Sync (the 200 ms confirm timer), Flush (the idle flush
//     before hibernating), Tick (virtual time for the .qs delayed write),
//     Read, Terminate, Delete.
//   - Publish and Ack return StoreCalls: the server half of writes and
//     removes for a MsgStore process (MsgStore.Handle). A MsgStore's Sync
//     returns Confirms, which QueueFiles.StoreConfirmed turns into publisher
//     confirms; VHost.Deliver and VHost.SyncStores do both at once for
//     callers that do not model the store as a separate process.
//   - MsgStore.GCStep runs the garbage collector one file operation at a
//     time (3.10: merging neighbour files; 3.13: compacting in place, on
//     MsgStore.ScheduleCompaction), reporting each step.
package store
