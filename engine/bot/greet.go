package bot

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/names"
)

// MaxNameBytes bounds the name a bot gives itself in ready, as a Lua
// player's display name is bounded.
const MaxNameBytes = 64

// EndGrace is how long a bot has after end to close its output before it
// is stopped.
const EndGrace = time.Second

// ErrNotReady is what Greet's errors wrap when the bot did not answer
// hello with a good ready in time.
var ErrNotReady = errors.New("not ready")

// unflushed is what a missing ready says besides: a bot that wrote ready
// without flushing its output looks to the engine like one that never
// wrote it.
const unflushed = "the bot may not have flushed its output: flush after every line (docs/bots.md, Writing a bot)"

// Greeting is what a bot answered hello with.
type Greeting struct {
	// Name is the name the bot gave itself, made safe to show and cut to
	// MaxNameBytes ("" when it gave none, or one that reads as another
	// team's: see readyName).
	Name string
	// Protocol is the protocol it chose among those hello offered: 1
	// unless it asked for another.
	Protocol int
}

// Greet says hello to a bot that was just started, offering protocol 1
// only, and waits for its ready within t.Init. It returns the name the bot
// gave itself (see Greeting.Name). On an error the bot plays no round
// (pass the error to NewController or NewCaller). Handshake offers
// protocol 2 too.
func Greet(conn Conn, h Hello, t Timing) (string, error) {
	g, err := greet(conn, h, t, []int{Protocol})
	return g.Name, err
}

// Handshake is Greet offering every protocol this package speaks for the
// battle's kind (protocol 2 for SquareBattle's round messages, see
// Protocols): the bot chooses one in its ready. Pass the Greeting's
// protocol to NewControllerProtocol.
func Handshake(conn Conn, h Hello, t Timing) (Greeting, error) {
	return greet(conn, h, t, Protocols(h.Kind))
}

// Protocols are the protocols this package speaks for a kind of round
// messages: 1 and 2 for KindSquares, 1 for KindCalls (protocol 2 changes
// only SquareBattle's round messages and answers).
func Protocols(kind string) []int {
	if kind == KindSquares {
		return []int{Protocol, Protocol2}
	}
	return []int{Protocol}
}

func greet(conn Conn, h Hello, t Timing, offer []int) (Greeting, error) {
	h.Type, h.Protocol, h.Protocols, h.Time = "hello", Protocol, nil, t.Time()
	if len(offer) > 1 {
		h.Protocols = offer // absent: protocol 1 only, as hello always was
	}
	line, err := json.Marshal(h)
	if err != nil {
		return Greeting{}, fmt.Errorf("%w: hello: %v", ErrNotReady, err)
	}
	var deadline time.Time
	if !t.NoTimeout {
		deadline = time.Now().Add(t.Init)
	}
	if err := conn.Send(line); err != nil {
		return Greeting{}, fmt.Errorf("%w: hello: %w", ErrNotReady, err)
	}
	got, err := conn.Receive(deadline)
	switch {
	case errors.Is(err, ErrLate):
		return Greeting{}, fmt.Errorf("%w: no ready within %v; %s", ErrNotReady, t.Init, unflushed)
	case err != nil:
		return Greeting{}, fmt.Errorf("%w: %w", ErrNotReady, err)
	}
	m, err := parseLine(got)
	if err == nil && m.Type != "ready" {
		err = malformed(`a %q message, not "ready"`, m.Type)
	}
	if err != nil {
		return Greeting{}, fmt.Errorf("%w: %w", ErrNotReady, err)
	}
	var name string
	if len(m.Name) > 0 && string(m.Name) != "null" && json.Unmarshal(m.Name, &name) != nil {
		return Greeting{}, fmt.Errorf(`%w: "name" is %s, not a string`, ErrNotReady, clip(m.Name))
	}
	g := Greeting{Name: readyName(name, h), Protocol: Protocol}
	if len(m.Protocol) > 0 && string(m.Protocol) != "null" {
		p, ok := wholeNumber(m.Protocol)
		if !ok || !offered(offer, p) {
			return Greeting{}, fmt.Errorf(`%w: "protocol" is %s; hello offered %v`, ErrNotReady, clip(m.Protocol), offer)
		}
		g.Protocol = int(p)
	}
	return g, nil
}

func offered(offer []int, p int64) bool {
	for _, o := range offer {
		if int64(o) == p {
			return true
		}
	}
	return false
}

// readyName is the name a bot gave itself in ready as other people will
// read it: every character that does not show (a zero-width space or
// joiner, a tag character, a bidi mark) written as a visible escape
// (names.Visible), so that nothing hides in it, made safe to print and cut
// to MaxNameBytes. A name that reads as another team's name in hello
// (names.Key: whatever its case, look-alike letters or invisible
// characters) would make two teams one on the scoreboard and in the
// replay: it is "" then, and the bot keeps the name it was listed by.
func readyName(name string, h Hello) string {
	// At most MaxNameBytes of the name, fewer when its escapes would make
	// it longer (an escape is cut whole, never in its middle).
	raw := cutName(name)
	shown := engine.SafeText(names.Visible(raw, 0))
	for len(shown) > MaxNameBytes {
		_, n := utf8.DecodeLastRuneInString(raw)
		raw = raw[:len(raw)-n]
		shown = engine.SafeText(names.Visible(raw, 0))
	}
	if shown == "" {
		return ""
	}
	k := names.Key(name)
	own := h.Team >= 0 && h.Team < len(h.Players) && names.Key(h.Players[h.Team]) == k
	for i, p := range h.Players {
		if i != h.Team && !own && names.Key(p) == k {
			return ""
		}
	}
	return shown
}

// cutName cuts a name to MaxNameBytes on a character boundary.
func cutName(s string) string {
	if len(s) <= MaxNameBytes {
		return s
	}
	cut := MaxNameBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// finish sends end, gives the bot EndGrace to close its output, and stops
// it. A bot that is gone, or that does not read its input, is stopped at
// once.
func (l *link) finish(e End) {
	defer l.close()
	if !l.free() {
		return
	}
	e.Type = "end"
	line, err := json.Marshal(e)
	if err != nil {
		return
	}
	deadline := time.Now().Add(EndGrace)
	sent := make(chan error, 1)
	go func() { sent <- l.conn.Send(line) }()
	timer := time.NewTimer(EndGrace)
	defer timer.Stop()
	select {
	case err := <-sent:
		if err != nil {
			return
		}
	case <-timer.C:
		return // close unblocks the send
	}
	for n := 0; n < maxStale; n++ { // skip what it still writes until it closes its output
		if _, err := l.conn.Receive(deadline); err != nil {
			return
		}
	}
}

// Finish tells the bot how the battle ended and stops it.
func (c *Controller) Finish(e End) { c.l.finish(e) }
