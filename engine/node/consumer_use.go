package node

// Consumer utilisation as rabbit_queue_consumers keeps it in 3.10.8: the
// share of time the queue could hand a message to a consumer at once. The
// queue is active from its start and whenever a consumer registers or a
// blocked one is unblocked; it turns inactive when it tries to deliver and
// no consumer can take the message (none, or every one at its prefetch or
// its channel's limit). An empty queue with a consumer waiting stays
// active. The share is a moving average with a half-life of one second,
// updated at each change from inactive to active (use_avg and
// rabbit_misc:moving_average).

import (
	"math"
	"strconv"
	"strings"
)

// useHalfLife is USE_AVG_HALF_LIFE, in µs.
const useHalfLife = 1_000_000.0

// consumerUse is rabbit_queue_consumers' use: {active, Since, Avg} or
// {inactive, Since, Active, Avg}.
type consumerUse struct {
	inactive  bool
	since     int64 // when the current state began, µs
	activeFor int64 // while inactive: how long the active spell before lasted
	avg       float64
}

func newConsumerUse(now int64) consumerUse { return consumerUse{since: now, avg: 1.0} }

// set is update_use.
func (u *consumerUse) set(active bool, now int64) {
	switch {
	case active == !u.inactive:
	case !active:
		u.inactive, u.activeFor, u.since = true, now-u.since, now
	default:
		u.avg = useAvg(u.activeFor, now-u.since, u.avg)
		u.inactive, u.since, u.activeFor = false, now, 0
	}
}

// capacity is rabbit_queue_consumers:capacity at now.
func (u consumerUse) capacity(now int64) float64 {
	if u.inactive {
		return useAvg(u.activeFor, now-u.since, u.avg)
	}
	return useAvg(now-u.since, 0, u.avg)
}

func useAvg(active, inactive int64, avg float64) float64 {
	if active == 0 && inactive == 0 {
		return avg
	}
	t := float64(active + inactive)
	w := math.Exp(t * math.Log(0.5) / useHalfLife)
	return float64(active)/t*(1-w) + avg*w
}

// FormatUtilisation prints a consumer_utilisation value as rabbitmqctl
// does: the integer 0 for a queue without consumers, else the float in
// Erlang's shortest form, always with a fraction (1.0, 0.25).
func FormatUtilisation(consumers int, v float64) string {
	if consumers == 0 {
		return "0"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if strings.ContainsAny(s, "e") {
		mant, exp, _ := strings.Cut(s, "e")
		if !strings.Contains(mant, ".") {
			mant += ".0"
		}
		return mant + "e" + strings.TrimLeft(strings.TrimPrefix(exp, "+"), "0")
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
