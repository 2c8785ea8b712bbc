package node

import "warren/engine/beam"

// Models credit_flow (rabbit_common).
//
// Credit is a pair {InitialCredit, MoreCreditAfter}: a sender may send
// InitialCredit messages to a peer before it must wait; the receiver grants
// MoreCreditAfter more each time it has handled that many. While a process is
// itself blocked, the grants it owes are held back, so back-pressure travels
// upstream.

// CreditSpec is {InitialCredit, MoreCreditAfter}.
type CreditSpec struct{ Initial, MoreAfter int }

// DefaultCredit is credit_flow_default_credit in 3.10.8.
var DefaultCredit = CreditSpec{400, 200}

// MsgStoreCredit is msg_store_credit_disc_bound in 3.10.8.
var MsgStoreCredit = CreditSpec{4000, 800}

type peerCount struct {
	pid beam.PID
	n   int
}

// creditFlow is one process's credit state toward its peers.
type creditFlow struct {
	spec      CreditSpec
	toPeer    []peerCount // credit left to send to each peer
	fromPeer  []peerCount // messages left before granting more to each peer
	blockedBy []beam.PID
	held      []beam.PID // grants owed while blocked
	// initial holds the initial credit toward a peer whose spec is not
	// the process's own (sendSpec: the msg_store's 4000).
	initial []peerCount
	// BlockedAt is the virtual time the process last became blocked.
	blockedAt  int64
	wasBlocked bool
}

func newCreditFlow(spec CreditSpec) creditFlow { return creditFlow{spec: spec} }

func find(list []peerCount, pid beam.PID) int {
	for i := range list {
		if list[i].pid == pid {
			return i
		}
	}
	return -1
}

// send records one message sent to peer; it reports whether the sender is
// now blocked by that peer.
func (c *creditFlow) send(peer beam.PID, now int64) bool {
	i := find(c.toPeer, peer)
	if i < 0 {
		c.toPeer = append(c.toPeer, peerCount{peer, c.spec.Initial})
		i = len(c.toPeer) - 1
	}
	c.toPeer[i].n--
	if c.toPeer[i].n <= 0 && !c.isBlockedBy(peer) {
		c.blockedBy = append(c.blockedBy, peer)
		c.blockedAt = now
		c.wasBlocked = true
		return true
	}
	return false
}

func (c *creditFlow) isBlockedBy(peer beam.PID) bool {
	for _, p := range c.blockedBy {
		if p == peer {
			return true
		}
	}
	return false
}

// sendSpec is send toward a peer whose credit has its own spec (the
// msg_store's {4000, 800}).
func (c *creditFlow) sendSpec(peer beam.PID, spec CreditSpec, now int64) bool {
	if find(c.toPeer, peer) < 0 {
		c.toPeer = append(c.toPeer, peerCount{peer, spec.Initial})
		if spec.Initial != c.spec.Initial && find(c.initial, peer) < 0 {
			c.initial = append(c.initial, peerCount{peer, spec.Initial})
		}
	}
	return c.send(peer, now)
}

// blocked reports whether any peer blocks this process.
func (c *creditFlow) blocked() bool { return len(c.blockedBy) > 0 }

// ack records one message handled from peer and returns the peer to grant
// more credit to now, if any (beam.None otherwise, or while blocked, in
// which case the grant is held).
func (c *creditFlow) ack(peer beam.PID) beam.PID {
	i := find(c.fromPeer, peer)
	if i < 0 {
		c.fromPeer = append(c.fromPeer, peerCount{peer, c.spec.MoreAfter})
		i = len(c.fromPeer) - 1
	}
	c.fromPeer[i].n--
	if c.fromPeer[i].n > 0 {
		return beam.None
	}
	c.fromPeer[i].n = c.spec.MoreAfter
	if c.blocked() {
		c.held = append(c.held, peer)
		return beam.None
	}
	return peer
}

// bump handles a grant of n from peer. It reports whether the credit
// toward peer came back above zero, and returns the grants to release
// when that made the process unblocked.
func (c *creditFlow) bump(peer beam.PID, n int) (released []beam.PID, back bool) {
	i := find(c.toPeer, peer)
	if i < 0 {
		return nil, false
	}
	was := c.toPeer[i].n
	c.toPeer[i].n += n
	if was <= 0 && c.toPeer[i].n > 0 {
		c.unblockPeer(peer)
		if !c.blocked() {
			released, c.held = c.held, nil
		}
		return released, true
	}
	return nil, false
}

func (c *creditFlow) unblockPeer(peer beam.PID) {
	for j, p := range c.blockedBy {
		if p == peer {
			c.blockedBy = append(c.blockedBy[:j], c.blockedBy[j+1:]...)
			return
		}
	}
}

// peerDown forgets a peer that exited.
func (c *creditFlow) peerDown(peer beam.PID) (released []beam.PID, unblocked bool) {
	if i := find(c.toPeer, peer); i >= 0 {
		c.toPeer = append(c.toPeer[:i], c.toPeer[i+1:]...)
	}
	if i := find(c.fromPeer, peer); i >= 0 {
		c.fromPeer = append(c.fromPeer[:i], c.fromPeer[i+1:]...)
	}
	if i := find(c.initial, peer); i >= 0 {
		c.initial = append(c.initial[:i], c.initial[i+1:]...)
	}
	wasBlocked := c.blocked()
	c.unblockPeer(peer)
	if wasBlocked && !c.blocked() {
		released, c.held = c.held, nil
		return released, true
	}
	return nil, false
}

// CreditLink is one sender's view of its credit toward a peer, for snapshots.
type CreditLink struct {
	From, To beam.PID
	Credit   int  // sends left before blocking
	Initial  int  // the spec's initial credit
	Blocked  bool // the sender is blocked by this peer
}

func (c *creditFlow) links(self beam.PID) []CreditLink {
	out := make([]CreditLink, 0, len(c.toPeer))
	for _, p := range c.toPeer {
		initial := c.spec.Initial
		if i := find(c.initial, p.pid); i >= 0 {
			initial = c.initial[i].n
		}
		out = append(out, CreditLink{From: self, To: p.pid, Credit: p.n, Initial: initial, Blocked: c.isBlockedBy(p.pid)})
	}
	return out
}
