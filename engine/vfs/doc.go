// Package vfs is the small filesystem interface every storage operation of the
// engine goes through, with an in-memory implementation that models what an
// fsync buys (crash versus power loss), injects faults by name, and traces
// every operation that changes the disk.
package vfs
