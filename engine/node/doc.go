// Package node is a simulated RabbitMQ 3.10 node built from sim processes:
// a reader per connection, a channel and a writer per channel, a queue
// process per queue, exchanges routing in the channel, credit flow between
// them, and the memory alarm. The moments a learner should notice it
// tells as they happen, as notices in an outbox the engine empties
// (notice.go).
package node
