package main

import (
	"errors"
	"regexp"
	"strconv"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
)

// tapConn stands between a bot and the engine for check --bot: it keeps
// the last lines the bot wrote, each with the round of the message it was
// answering, so that a fault can be shown with the bot's own line, and
// sees how the bot takes end.
//
// Concurrency: the engine calls Send and Receive from one goroutine at a
// time (bot.Conn's contract); check reads what was kept from another, so
// everything kept is under mu.
type tapConn struct {
	bot.Conn
	mu    sync.Mutex
	round int // the round of the last round message sent; 0: none yet
	lines []tapLine
	// What came of end: sentEnd once it went out, then the lines the bot
	// wrote after it and how its output ended (ended, with endErr).
	sentEnd  bool
	afterEnd int
	ended    bool
	endErr   error
}

type tapLine struct {
	round int
	text  string
}

// Bounds on what a tap keeps: the lines of the last rounds, each cut.
const (
	tapLines     = 64
	tapLineBytes = 300
)

// messageRe finds an engine message's type and round near its start.
var (
	typeRe  = regexp.MustCompile(`"type":"(\w+)"`)
	roundRe = regexp.MustCompile(`"round":(\d+)`)
)

func (c *tapConn) Send(line []byte) error {
	head := line[:min(len(line), 80)]
	if m := typeRe.FindSubmatch(head); m != nil {
		c.mu.Lock()
		switch string(m[1]) {
		case "round":
			if r := roundRe.FindSubmatch(head); r != nil {
				c.round, _ = strconv.Atoi(string(r[1]))
			}
		case "end":
			c.sentEnd = true
		}
		c.mu.Unlock()
	}
	return c.Conn.Send(line)
}

func (c *tapConn) Receive(deadline time.Time) ([]byte, error) {
	line, err := c.Conn.Receive(deadline)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err == nil && c.sentEnd:
		c.afterEnd++
	case err == nil:
		text := string(line[:min(len(line), tapLineBytes)])
		if len(line) > tapLineBytes {
			text += "…"
		}
		c.lines = append(c.lines, tapLine{c.round, text})
		if len(c.lines) > tapLines {
			c.lines = c.lines[len(c.lines)-tapLines:]
		}
	case c.sentEnd && !c.ended:
		c.ended, c.endErr = true, err
	}
	return line, err
}

// lineOf is the last line the bot wrote while it was answering round
// (before the first round: its ready), "" when it wrote none that is
// still kept.
func (c *tapConn) lineOf(round int) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(c.lines) - 1; i >= 0; i-- {
		if c.lines[i].round == round {
			return c.lines[i].text
		}
	}
	if round <= 1 {
		for i := len(c.lines) - 1; i >= 0; i-- {
			if c.lines[i].round == 0 {
				return c.lines[i].text
			}
		}
	}
	return ""
}

// endVerdict says how the bot took end: "" when it was told and exited
// without writing more, else what went wrong (or that it was never told).
func (c *tapConn) endVerdict() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ce *process.ClosedError
	switch {
	case !c.sentEnd:
		return "it was never sent end (it was retired before the battle ended)"
	case c.afterEnd > 0:
		return plural(c.afterEnd, "line") + " written after end (a bot exits on end without a word)"
	case !c.ended || errors.Is(c.endErr, bot.ErrLate):
		return "still running " + bot.EndGrace.String() + " after end: exit on end, and when the input ends"
	case errors.As(c.endErr, &ce) && ce.Exit != "" && ce.Exit != "exit status 0":
		return "it exited with " + ce.Exit + " after end"
	}
	return ""
}
