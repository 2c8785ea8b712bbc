// Package inspect reads a RabbitMQ 3.10.8 vhost folder through a vfs.FS and
// reports what every queue index and message store file in it holds.
package inspect
