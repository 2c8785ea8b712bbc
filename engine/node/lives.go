package node

import (
	"slices"

	"warren/engine/internal/order"
)

// The cluster logs the queues whose record came or went, or whose life
// (its process, its restarts, its supervisor giving up, as
// rabbit_amqqueue_sup_sup sees them) changed, so that the markers read
// only those once per command instead of every queue. The log is a pure
// function of the history (a replay and a seek build the same one); a
// reader keeps its own place in it.

func (c *Cluster) noteLife(name string) { c.lives = append(c.lives, name) }

// LivesLogged is the length of the log of changed lives: a reader's place
// after reading all of it.
func (c *Cluster) LivesLogged() int { return len(c.lives) }

// ChangedLives returns, sorted and once each, the queues whose record or
// life changed since place in the log (an earlier LivesLogged), and the
// place after them.
func (c *Cluster) ChangedLives(place int) ([]string, int) {
	if place < 0 || place >= len(c.lives) {
		return nil, len(c.lives)
	}
	names := slices.Clone(c.lives[place:])
	order.Strings(names)
	return slices.Compact(names), len(c.lives)
}

// QueueLife returns one queue's life; ok is false when there is no such
// queue.
func (c *Cluster) QueueLife(name string) (life QueueLife, ok bool) {
	rec, ok := c.queues[name]
	if !ok {
		return QueueLife{}, false
	}
	return QueueLife{PID: rec.PID, Restarts: len(rec.restarts), Dead: rec.dead}, true
}
