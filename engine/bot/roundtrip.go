package bot

import "time"

// RoundTrip is what the last exchange with a bot took, from writing its
// message to reading the answer's newline; Late says that no answer came
// within the clock (D is then the time it had). The zero value: no
// exchange yet. It is for people (the team table shows each bot's) and
// changes nothing in the battle: a replay of the battle has none.
type RoundTrip struct {
	D    time.Duration
	Late bool
}

// rt packs a round trip for link.trip: nanoseconds, negative when no
// answer came within the budget (then it is the budget).
func rt(d time.Duration, late bool) int64 {
	if late {
		return -max(int64(d), 1)
	}
	return int64(d)
}

func (l *link) roundTrip() RoundTrip {
	v := l.trip.Load()
	if v < 0 {
		return RoundTrip{D: time.Duration(-v), Late: true}
	}
	return RoundTrip{D: time.Duration(v)}
}

// RoundTrip is the last exchange's round trip. It may be called from any
// goroutine.
func (c *Controller) RoundTrip() RoundTrip { return c.l.roundTrip() }

// RoundTrip is the last exchange's round trip. It may be called from any
// goroutine.
func (c *Caller) RoundTrip() RoundTrip { return c.l.roundTrip() }
