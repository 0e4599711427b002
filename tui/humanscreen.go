package tui

import (
	"fmt"
	"math"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/tui/human"
)

// The battle screen of a battle with a team played at the keys: the keys
// go to that team first (tui/human decides what they mean), a cursor marks
// its selected square, a line above the arena says what it is doing, and
// a countdown runs before the first round.

// humanSide is the viewer's part of a human battle. It belongs to the UI
// goroutine; h is safe to call from it (package human locks).
type humanSide struct {
	team  int
	h     Human
	until time.Time // the countdown's end; zero once the battle runs
}

// Default paces, for Settings that leave them 0.
const (
	defaultHumanPace = 4
	defaultSteerPace = 8
)

// humanPace is how a battle with a human runs under set: at the human
// pace (a steered mod's when h is a Steer), paused through the countdown,
// which the owner's session ends (followCountdown).
func humanPace(set Settings, p pace, hs *humanSide) pace {
	_, steer := hs.h.(*human.Steer)
	p.speed = set.HumanPace
	if steer {
		p.speed = set.SteerPace
	}
	if p.speed <= 0 {
		p.speed = defaultHumanPace
		if steer {
			p.speed = defaultSteerPace
		}
	}
	if set.Countdown > 0 && !p.paused {
		p.paused = true
		hs.until = time.Now().Add(set.Countdown)
	}
	return p
}

// humanSideOf is the human part of a new battle, or nil.
func humanSideOf(b Battle) *humanSide {
	hb, ok := b.(HumanBattle)
	if !ok {
		return nil
	}
	team, h := hb.Human()
	if h == nil {
		return nil
	}
	return &humanSide{team: team, h: h}
}

// followCountdown redraws the countdown and, at its end, starts the
// battle (unless the user paused or started it already).
func (a *App) followCountdown() {
	if a.w == nil || a.w.human == nil || a.w.human.until.IsZero() {
		return
	}
	hs := a.w.human
	a.dirty = true
	if time.Now().Before(hs.until) {
		return
	}
	hs.until = time.Time{}
	if f := a.w.d.latest(); f.paused && !f.end {
		a.w.d.send(command{kind: cmdPause})
	}
}

// humanKey offers a key to the human's team; it reports whether the team
// took it. The countdown's first key ends it: the human is ready.
func (a *App) humanKey(ev *tcell.EventKey) bool {
	hs := a.w.human
	k, ok := humanKeyOf(ev)
	if !ok {
		return false
	}
	return hs.h.Key(k)
}

// humanKeyOf turns a terminal key into the controller's; ok is false for
// keys no human control uses (Ctrl keys, function keys).
func humanKeyOf(ev *tcell.EventKey) (human.Key, bool) {
	switch ev.Key() {
	case tcell.KeyRune:
		if ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) != 0 {
			return human.Key{}, false
		}
		return human.Rune(ev.Rune()), true
	case tcell.KeyUp:
		return human.Named(human.KeyUp), true
	case tcell.KeyDown:
		return human.Named(human.KeyDown), true
	case tcell.KeyLeft:
		return human.Named(human.KeyLeft), true
	case tcell.KeyRight:
		return human.Named(human.KeyRight), true
	case tcell.KeyTab:
		return human.Named(human.KeyTab), true
	case tcell.KeyBacktab:
		return human.Named(human.KeyBacktab), true
	case tcell.KeyEnter:
		return human.Named(human.KeyEnter), true
	case tcell.KeyEscape:
		return human.Named(human.KeyEsc), true
	}
	return human.Key{}, false
}

// humanLayout takes the arena's top row for the human's line.
func humanLayout(l battleLayout) (battleLayout, rect) {
	bar := rect{l.arena.x, l.arena.y, l.arena.w, 1}
	if l.arena.h > 2 {
		l.arena.y++
		l.arena.h--
	}
	return l, bar
}

// drawHuman draws the cursor on the selected square, the human's line and
// the countdown.
func (a *App) drawHuman(f *frame, l battleLayout, bar rect, w, h int) {
	hs := a.w.human
	var text string
	switch c := hs.h.(type) {
	case *human.Squad:
		st := c.State()
		text = squadLine(st)
		switch {
		case f.snap.Marks != nil || f.past:
		case st.Selected >= 0:
			a.drawCursor(f, l, st.Row, st.Col)
		case f.snap.Round == 0:
			// Before the first round the squad has not met its
			// squares yet: mark the team's one starting square.
			if row, col, ok := onlyCell(f.snap, hs.team); ok {
				a.drawCursor(f, l, row, col)
			}
		}
	case *human.Steer:
		st := c.State()
		dir := st.Dir
		if dir == "" {
			dir = "not yet (the autopilot plays)"
		}
		text = "YOU steer: " + dir + "   arrows / WASD / hjkl steer"
		if st.Idle {
			text += "   IDLE: the autopilot plays until a key"
		}
	}
	a.c.fill(bar, tcell.StyleDefault)
	a.c.text(bar.x, bar.y, bar.w, " "+text, a.th.accent())
	if !hs.until.IsZero() {
		left := int(math.Ceil(time.Until(hs.until).Seconds()))
		lines := []line{
			{fmt.Sprintf("The battle starts in %d…", max(left, 1)), tcell.StyleDefault.Bold(true)},
			{"", tcell.StyleDefault},
		}
		if _, ok := hs.h.(*human.Squad); ok {
			lines = append(lines,
				line{"Tab / Shift-Tab  select your next / previous square", tcell.StyleDefault},
				line{"m a r + hjkl yubn or arrows  move, attack, replicate", tcell.StyleDefault},
				line{"x clear an order, p pick the autopilot, ? all keys", tcell.StyleDefault})
		} else {
			lines = append(lines, line{"arrows, WASD or hjkl steer; ? all keys", tcell.StyleDefault})
		}
		drawBox(a.c, fmt.Sprintf("You are team %d", hs.team+1), lines, w, h)
	}
}

// onlyCell is where team's one square stands, when it has exactly one.
func onlyCell(s *engine.Snapshot, team int) (row, col int, ok bool) {
	at := -1
	for i, c := range s.Cells {
		if int(c) != team {
			continue
		}
		if at >= 0 {
			return 0, 0, false
		}
		at = i
	}
	if at < 0 {
		return 0, 0, false
	}
	return at / s.Size, at % s.Size, true
}

// squadLine is the human's line for a SquareBattle team.
func squadLine(st human.SquadState) string {
	if st.Prompt != "" {
		return "YOU: " + st.Prompt + "  (Esc cancels)"
	}
	s := "YOU"
	switch {
	case st.Selected < 0:
		s += ": no square"
	case st.Order != nil:
		s += fmt.Sprintf(": square #%d of %d, %s %s", st.Selected, st.Squares, st.Order.Action, st.Order.Dir)
	default:
		s += fmt.Sprintf(": square #%d of %d, autopilot", st.Selected, st.Squares)
	}
	s += fmt.Sprintf("   keys %s   autopilot %s", st.Verb, st.Pilot)
	if st.Idle {
		s += "   IDLE: the autopilot plays until a key"
	} else if st.Note != "" {
		s += "   " + st.Note
	}
	return s
}

// drawCursor marks the cell at row, col of the arena (row 0 at the
// bottom), when it is on view.
func (a *App) drawCursor(f *frame, l battleLayout, row, col int) {
	ascii := a.asciiArena()
	x, y, ok := a.w.view.screenOf(f.snap.Size, l.arena, ascii, row, col)
	if !ok {
		return
	}
	glyph := "◆"
	if ascii {
		glyph = "@"
	}
	st := tcell.StyleDefault.Bold(true).Reverse(true)
	if !a.th.mono {
		st = tcell.StyleDefault.Bold(true).Foreground(tcell.ColorWhite).Background(a.th.team(colourOf(a.w.colours, a.w.human.team)))
	}
	a.c.s.Put(x, y, glyph, st)
}

// screenOf is where the arena cell at row, col (row 0 at the bottom) is
// drawn in r, as draw lays the arena out; ok is false when it is not on
// view.
func (v *arenaView) screenOf(size int, r rect, ascii bool, row, col int) (x, y int, ok bool) {
	g := v.geometry(size, r, ascii)
	sr, sc := (size-1-row)/g.k, col/g.k
	x = sc - v.left + g.offX
	ry := sr - v.top + g.offY*g.per
	if x < 0 || ry < 0 || x >= r.w {
		return 0, 0, false
	}
	y = ry / g.per
	if y >= r.h {
		return 0, 0, false
	}
	return r.x + x, r.y + y, true
}

// squadKeys and steerKeys are what help shows first in a battle with a
// human; the human's controller reads the keys (package human), and what it
// leaves goes on to the battle's keys below them.
var squadKeys = []binding{
	{nil, "Tab Shift-Tab", "YOU: select your next / previous square", actNone},
	{nil, "m a r", "YOU: the next direction moves / attacks / replicates", actNone},
	{nil, "hjkl yubn", "YOU: W S N E, NW NE SW SE (arrows: N S W E): the order", actNone},
	{nil, "1-9 Enter", "YOU: after r and a direction, the child's class", actNone},
	{nil, "x X", "YOU: clear this square's order / every order", actNone},
	{nil, "p 0-9", "YOU: the autopilot: 0 wait, 1-9 a class", actNone},
}

var steerKeys = []binding{
	{nil, "arrows WASD hjkl", "YOU: steer (the direction stands)", actNone},
}

// humanHelp is the help table of a battle with a human: the human's keys,
// then the battle's (base).
func humanHelp(hs *humanSide, base []binding) []binding {
	own := squadKeys
	if _, ok := hs.h.(*human.Steer); ok {
		own = steerKeys
	}
	return append(own[:len(own):len(own)], base...)
}
