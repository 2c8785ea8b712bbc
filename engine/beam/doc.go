// Package sim is warren's small BEAM: processes that own their state and
// handle one mailbox message at a time, schedulers that run them in slices
// of reductions on a virtual clock, timers, and a numbered record of every
// event. It knows nothing about RabbitMQ.
package beam
