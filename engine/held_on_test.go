//go:build invariants

package engine

// checkHeld: built with -tags invariants, the scenario files' tests hold
// the node's running totals to a count after every event (execCase).
const checkHeld = true
