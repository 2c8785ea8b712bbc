package node

// Costs is the cost table: virtual µs of scheduler time per operation.
// Calibrated against a real 3.10.8 broker on a 2-core machine
// (reference/rabbitmq-observed.md §D): about 30 µs of broker CPU per
// transient message published, delivered and acked, and about 80 µs for a
// persistent one with confirms. Throughput measured the same way was 32,664
// msgs/s transient (auto-ack) against 10,362 persistent (confirms, manual
// acks), a ratio of 3.15; PersistPublish and PersistAck bring the engine's
// ratio on the same two workloads to about 3 (scripts/bench prints both).
type Costs struct {
	ReaderFrame    int64 // parse one non-content method frame
	ReaderPublish  int64 // parse a publish: method, header and body frames
	ChannelMethod  int64 // handle a method that is not a publish
	ChannelPublish int64 // route a publish (before per-queue fan-out)
	ChannelPerDest int64 // each queue a publish is sent to
	ChannelDeliver int64 // record an unacked delivery and pass it to the writer
	ChannelAck     int64 // settle acks and forward them to queues
	WriterSend     int64 // serialise one frame to the socket
	QueueEnqueue   int64 // accept a published message
	QueueDeliver   int64 // hand one message to a consumer
	QueueAck       int64 // settle one acknowledged message
	QueueCall      int64 // a synchronous call (declare, get, consume, ...)
	QueueDeclare   int64 // create a queue process and its records
	PerKB          int64 // extra cost per KiB of body copied
	Timer          int64 // handle a timer message
	// BacklogPer100k is added to a queue's enqueue and deliver costs for
	// every 100,000 ready messages it holds: a long queue costs more per
	// message (larger structures, longer garbage collections).
	BacklogPer100k int64
	PageOut        int64 // write one message's body and index entry to disk to free memory
	// PersistPublish is a durable queue's work for one persistent message
	// beyond the file calls (rabbit_queue_index:publish and
	// rabbit_variable_queue: encoding the entry and an embedded body,
	// tracking it for the confirm until it is synced); PersistAck is the
	// work of its delivery and ack entries when it leaves the queue. Their
	// sum is what is calibrated; the split between them is not measured.
	PersistPublish int64
	PersistAck     int64
	PageIn         int64 // read a paged-out message back before delivering it
	// DistHop is what a message crossing to another node costs its sender
	// and, again, its receiver. Measured with `go run ./scripts/bench -hop`
	// on a two-node 3.10.8 cluster sharing one 2-core machine: a crossing
	// costs the two nodes together 7 to 13 µs of CPU (median about 10),
	// for a 16-byte and for an 8 KiB message alike, within the noise (the
	// distribution passes a large binary by reference and the kernel copies
	// it): so no cost per KiB.
	DistHop int64
}

// DefaultCosts is the 3.10 profile's cost table.
var DefaultCosts = Costs{
	ReaderFrame:    2,
	ReaderPublish:  5,
	ChannelMethod:  3,
	ChannelPublish: 5,
	ChannelPerDest: 1,
	ChannelDeliver: 3,
	ChannelAck:     2,
	WriterSend:     3,
	QueueEnqueue:   4,
	QueueDeliver:   4,
	QueueAck:       2,
	QueueCall:      5,
	QueueDeclare:   40,
	PerKB:          1,
	Timer:          2,
	BacklogPer100k: 6,
	PageOut:        30,
	PersistPublish: 24,
	PersistAck:     12,
	DistHop:        5,
	PageIn:         20,
}
