// Package runner runs scenario files against a target (the engine or a
// real broker) and compares what each case printed with what the file
// expects.
package runner
