//go:build !invariants

package node

// checkingInvariants says whether queues check their bookkeeping after
// every message (built with -tags invariants). Without the tag the check
// is left out of queue.Handle altogether: in the browser build, where
// nothing is inlined in this package, even an empty deferred call costs a
// call at every message.
const checkingInvariants = false

func (q *queue) checkInvariants() {}
