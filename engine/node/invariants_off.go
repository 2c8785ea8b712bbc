//go:build !invariants

package node

func (q *queue) checkInvariants() {}
