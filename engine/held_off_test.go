//go:build !invariants

package engine

// checkHeld: without -tags invariants, the scenario files' tests run their
// commands alone (execCase).
const checkHeld = false
