package ssh

import (
	"slices"
	"sync"
	"time"
)

// window counts entries per key (a key's fingerprint, an address) over
// the last span, at most max each: the hourly limits (uploads, newUsers).
// Its map holds only keys with an entry of the last span: sweep forgets
// the others at most once a minute, so memory follows the last span's
// clients, not every one ever seen. Safe for concurrent use.
type window struct {
	mu    sync.Mutex
	by    map[string][]windowEntry // oldest first
	max   int
	span  time.Duration
	now   func() time.Time
	swept time.Time
}

// windowEntry is one entry and when it was taken; id names it when an
// entry is counted once however often it is taken ("" never).
type windowEntry struct {
	id string
	at time.Time
}

func newWindow(max int) window {
	return window{by: map[string][]windowEntry{}, max: max, span: time.Hour, now: time.Now}
}

// take records an entry for key, or returns how long until one more is
// allowed (a whole span when max is 0: none ever is). An entry with an id
// key holds already is allowed without counting again.
func (w *window) take(key, id string) (ok bool, wait time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	w.sweep(now)
	es := w.fresh(key, now)
	if id != "" && slices.ContainsFunc(es, func(e windowEntry) bool { return e.id == id }) {
		return true, 0
	}
	if len(es) >= w.max {
		if len(es) == 0 {
			return false, w.span
		}
		return false, w.span - now.Sub(es[0].at)
	}
	w.by[key] = append(es, windowEntry{id, now})
	return true, 0
}

// fresh drops key's entries that are a span old and returns the rest.
func (w *window) fresh(key string, now time.Time) []windowEntry {
	es := w.by[key]
	i := 0
	for i < len(es) && now.Sub(es[i].at) >= w.span {
		i++
	}
	if i == len(es) {
		delete(w.by, key)
		return nil
	}
	es = es[i:]
	w.by[key] = es
	return es
}

// sweep forgets the keys whose entries are all a span old, at most once a
// minute.
func (w *window) sweep(now time.Time) {
	if now.Sub(w.swept) < time.Minute {
		return
	}
	w.swept = now
	for key := range w.by {
		w.fresh(key, now)
	}
}
