//go:build !js

// Command inspect prints what a RabbitMQ 3.10.8 vhost folder holds: every
// queue (name, index version, each seq id with where its body lives, its
// size, expiry, state and the start of its body) and every message store file
// (each entry, live or dead, with its id and the start of its body).
//
// Usage:
//
//	go run ./scripts/inspect DIR
//
// DIR is the folder that holds queues/ and msg_store_persistent/, such as
// /var/lib/rabbitmq/mnesia/rabbit@host/msg_stores/vhosts/628WB79CIFDYO9LJI6DKMI09L.
// The exit code is 1 when the folder cannot be read or a file could not be
// decoded completely; the message names the file and the byte offset.
package main
