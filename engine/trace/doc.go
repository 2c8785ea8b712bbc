// Package trace is what a client observes, printed one event a line in the
// order the command language fixes, so that the engine and a real broker
// can be compared line by line.
package trace
