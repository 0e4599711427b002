package tui

// mailbox hands a viewer the newest frame of the battle it watches: it
// holds at most one frame, and a newer one replaces an older one not yet
// taken. The driver puts without ever waiting, so a viewer that draws
// slowly (or whose terminal stopped reading) skips frames instead of
// holding up the battle.
//
// Concurrency: one goroutine puts (the battle's driver), one takes (the
// viewer's session) by receiving from ch.
type mailbox struct{ ch chan *frame }

func newMailbox() *mailbox { return &mailbox{ch: make(chan *frame, 1)} }

// put leaves f in the box, dropping the frame there if the viewer has not
// taken it. With a single putter this takes at most two rounds: after the
// drop the box is empty and only the putter fills it.
func (m *mailbox) put(f *frame) {
	for {
		select {
		case m.ch <- f:
			return
		default:
		}
		select {
		case <-m.ch:
		default:
		}
	}
}
