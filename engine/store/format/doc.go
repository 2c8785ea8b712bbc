// Package format encodes and decodes, byte for byte, the files RabbitMQ
// 3.10.8 writes for classic queues: v2 index segments (.qi), v2 queue stores
// (.qs), shared message store files (.rdq), the v1 journal and segments
// (journal.jif, .idx), the stored message term and its AMQP properties, and
// the names of vhost and queue directories; and reads any of those files
// field by field for a reader (Annotate), what the Files view draws.
package format
