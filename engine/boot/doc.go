// Package boot starts a vhost from a RabbitMQ 3.10.8 vhost folder as the
// node would on boot: which queues come back (the durable ones; their
// names come from the definitions the reader gives, else from each queue
// directory's .queue_name, else from the directory), which of their
// messages come back (the persistent ones the index and the message store
// both still hold), which do not, and why. It recovers with warren's own
// storage (engine/store) on a copy of the folder, so that what it says is
// what the simulated node would do.
//
// Models rabbit_vhost:recover/1 and rabbit_variable_queue's recovery
// after a stop without recovery terms: warren reads no recovery.dets, so
// every recovery is the one after a crash, whatever stop the folder saw.
package boot
