package tui

import (
	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/engine"
)

// outside marks a screen position beyond the arena's edge.
const outside = -3

// arenaView draws the arena into a rectangle. With block glyphs each
// character shows two cells, one above the other, with the upper half block:
// its foreground is the upper cell and its background the lower one, so
// cells come out square. Without them (ASCII, or no colours) each character
// is one cell and teams are told apart by their digit or letter.
//
// An arena larger than the rectangle is panned (left, top) or, in fit mode,
// scaled down by sampling: each shown cell stands for a k×k block and takes
// the team that holds most of the block.
//
// An arenaView belongs to the UI goroutine.
type arenaView struct {
	fit       bool
	left, top int // first arena column shown; first row shown, counted from the top row down

	dragging     bool
	dragX, dragY int
	counts       []int // fit mode scratch
}

// geometry is how an arena maps onto a rectangle this frame.
type geometry struct {
	per        int // arena rows per character: 2 with half blocks, 1 in ASCII
	k          int // arena cells per shown cell, each way (fit mode)
	vs         int // shown cells across: ceil(size/k)
	offX, offY int // margins that centre a small arena
}

func (v *arenaView) geometry(size int, r rect, ascii bool) geometry {
	g := geometry{per: 2, k: 1}
	if ascii {
		g.per = 1
	}
	if v.fit && r.w > 0 && r.h > 0 {
		g.k = max(ceilDiv(size, r.w), ceilDiv(size, r.h*g.per), 1)
	}
	g.vs = ceilDiv(size, g.k)
	g.offX = max(0, (r.w-g.vs)/2)
	g.offY = max(0, (r.h-ceilDiv(g.vs, g.per))/2)
	return g
}

func ceilDiv(a, b int) int {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// clamp keeps the pan inside the arena; fit mode shows everything.
func (v *arenaView) clamp(size int, r rect, ascii bool) {
	g := v.geometry(size, r, ascii)
	if g.k > 1 || v.fit {
		v.left, v.top = 0, 0
		return
	}
	v.left = min(max(v.left, 0), max(0, size-r.w))
	v.top = min(max(v.top, 0), max(0, size-r.h*g.per))
}

// pan moves the view by dx columns and dy screen rows.
func (v *arenaView) pan(dx, dy, size int, r rect, ascii bool) {
	g := v.geometry(size, r, ascii)
	v.left += dx
	v.top += dy * g.per
	v.clamp(size, r, ascii)
}

// mouse pans while the primary button drags and on wheel events; it
// reports whether the view moved.
func (v *arenaView) mouse(ev *tcell.EventMouse, size int, r rect, ascii bool) bool {
	x, y := ev.Position()
	b := ev.Buttons()
	oldL, oldT := v.left, v.top
	switch {
	case b&tcell.Button1 != 0:
		if v.dragging {
			v.pan(v.dragX-x, v.dragY-y, size, r, ascii)
		} else if x < r.x || y < r.y || x >= r.x+r.w || y >= r.y+r.h {
			return false
		}
		v.dragging, v.dragX, v.dragY = true, x, y
	case b&tcell.WheelUp != 0:
		v.pan(0, -3, size, r, ascii)
	case b&tcell.WheelDown != 0:
		v.pan(0, 3, size, r, ascii)
	case b&tcell.WheelLeft != 0:
		v.pan(-6, 0, size, r, ascii)
	case b&tcell.WheelRight != 0:
		v.pan(6, 0, size, r, ascii)
	default:
		v.dragging = false
	}
	return v.left != oldL || v.top != oldT
}

// draw paints the snapshot's arena into r. colours maps a team to its
// palette entry. A rule mod's cells are drawn by their marks (see look).
func (v *arenaView) draw(c canvas, th theme, colours []int, s *engine.Snapshot, r rect) {
	ascii := c.g.ascii || th.mono
	v.clamp(s.Size, r, ascii)
	g := v.geometry(s.Size, r, ascii)
	if g.k > 1 && len(v.counts) < len(s.Teams) {
		v.counts = make([]int, len(s.Teams))
	}
	empty := th.empty()
	// cell returns what the shown cell at (row counted from the top, col)
	// holds, after panning and centring.
	cell := func(row, col int) look {
		col += v.left - g.offX
		row += v.top - g.offY*g.per
		if col < 0 || row < 0 || col >= g.vs || row >= g.vs {
			return look{team: outside}
		}
		if s.Marks != nil {
			if g.k == 1 {
				i := (s.Size-1-row)*s.Size + col
				return markLook(int(s.Cells[i]), s.Marks[i])
			}
			return v.sampleMarks(s, row*g.k, col*g.k, g.k)
		}
		if g.k == 1 {
			return teamLook(s.At(s.Size-1-row, col))
		}
		return teamLook(v.sample(s, row*g.k, col*g.k, g.k))
	}
	plain := tcell.StyleDefault
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if ascii {
				l := cell(y, x)
				if l.team == outside {
					c.s.Put(r.x+x, r.y+y, " ", plain)
					continue
				}
				glyph, st := l.ascii(th, colours)
				c.s.Put(r.x+x, r.y+y, glyph, st.Background(empty))
				continue
			}
			up, lo := cell(2*y, x), cell(2*y+1, x)
			switch {
			case up.team == outside && lo.team == outside:
				c.s.Put(r.x+x, r.y+y, " ", plain)
			case up.blank() && lo.blank():
				c.s.Put(r.x+x, r.y+y, " ", plain.Background(empty))
			default:
				c.s.Put(r.x+x, r.y+y, "▀", plain.Foreground(up.colour(th, colours)).Background(lo.colour(th, colours)))
			}
		}
	}
}

// look is what one shown cell shows: a team (or outside, or Empty) and how
// it is drawn. SquareBattle's squares are units.
type look struct {
	team  int
	style engine.Style
	value uint8
}

func teamLook(t int) look {
	if t < 0 {
		return look{team: t}
	}
	return look{team: t, style: engine.StyleUnit}
}

// markLook is a rule mod's cell. Units and trails belong to a team; the
// other styles are neutral whatever team the rules put on the cell.
func markLook(team int, m engine.Mark) look {
	st := m.Style()
	switch st {
	case engine.StyleUnit, engine.StyleTrail:
		if team < 0 {
			return look{team: engine.Empty}
		}
		return look{team: team, style: st}
	case engine.StyleEmpty:
		return look{team: engine.Empty}
	}
	return look{team: engine.Empty, style: st, value: m.Value()}
}

// blank reports an empty cell.
func (l look) blank() bool { return l.team < 0 && l.style == engine.StyleEmpty }

// colour is the cell's colour with half blocks.
func (l look) colour(th theme, colours []int) tcell.Color {
	switch {
	case l.team == outside:
		return tcell.ColorReset
	case l.style == engine.StyleUnit:
		return th.team(colourOf(colours, l.team))
	case l.style == engine.StyleTrail:
		return th.soft(colourOf(colours, l.team))
	case l.style == engine.StyleWall:
		return th.wall()
	case l.style == engine.StyleItem:
		return th.item()
	case l.style == engine.StyleValue:
		return th.shade(l.value)
	}
	return th.empty()
}

// ascii is the cell's character and style when each character is one
// cell: a team's unit is its digit or letter in bold, its trail the same
// character softer (without colours: dim), a wall #, an
// item *, shaded ground a character as dense as its value.
func (l look) ascii(th theme, colours []int) (string, tcell.Style) {
	plain := tcell.StyleDefault
	switch l.style {
	case engine.StyleUnit:
		return glyphOf(l.team), plain.Foreground(th.team(colourOf(colours, l.team))).Bold(true)
	case engine.StyleTrail:
		if th.mono {
			return glyphOf(l.team), plain.Dim(true)
		}
		return glyphOf(l.team), plain.Foreground(th.soft(colourOf(colours, l.team)))
	case engine.StyleWall:
		return "#", plain.Foreground(th.wall()).Bold(true)
	case engine.StyleItem:
		return "*", plain.Foreground(th.item()).Bold(true)
	case engine.StyleValue:
		return string(shadeRamp[int(l.value)*len(shadeRamp)/256]), plain.Foreground(th.shade(max(l.value, 96)))
	}
	return ".", th.dim()
}

// shadeRamp: ASCII characters from sparse to dense, for shaded ground.
const shadeRamp = " .:-=+%@"

// sample picks the team holding most of the k×k block whose top-left cell
// is (row counted from the top, col); ties go to the lower team index, and
// an empty block is empty.
func (v *arenaView) sample(s *engine.Snapshot, row, col, k int) int {
	clear(v.counts)
	best, bestN := -1, 0
	for dr := 0; dr < k && row+dr < s.Size; dr++ {
		base := (s.Size - 1 - row - dr) * s.Size
		for dc := 0; dc < k && col+dc < s.Size; dc++ {
			t := int(s.Cells[base+col+dc])
			if t < 0 {
				continue
			}
			v.counts[t]++
			if n := v.counts[t]; n > bestN || (n == bestN && t < best) {
				best, bestN = t, n
			}
		}
	}
	return best
}

// sampleMarks is sample for a rule mod: a block with a unit shows the
// unit of the team with most units in it; otherwise the most common of
// each team's trail, walls, items and shaded ground (shown at its mean
// value), in that order on ties; a block of empty cells is empty.
func (v *arenaView) sampleMarks(s *engine.Snapshot, row, col, k int) look {
	teams := len(s.Teams)
	if len(v.counts) < 2*teams {
		v.counts = make([]int, 2*teams)
	}
	clear(v.counts)
	units, trails := v.counts[:teams], v.counts[teams:2*teams]
	var walls, items, values, sum int
	for dr := 0; dr < k && row+dr < s.Size; dr++ {
		base := (s.Size - 1 - row - dr) * s.Size
		for dc := 0; dc < k && col+dc < s.Size; dc++ {
			i := base + col + dc
			l := markLook(int(s.Cells[i]), s.Marks[i])
			switch l.style {
			case engine.StyleUnit:
				units[l.team]++
			case engine.StyleTrail:
				trails[l.team]++
			case engine.StyleWall:
				walls++
			case engine.StyleItem:
				items++
			case engine.StyleValue:
				values++
				sum += int(l.value)
			}
		}
	}
	if t, n := most(units); n > 0 {
		return look{team: t, style: engine.StyleUnit}
	}
	best, bestN := look{team: engine.Empty}, 0
	if t, n := most(trails); n > 0 {
		best, bestN = look{team: t, style: engine.StyleTrail}, n
	}
	for _, o := range []struct {
		l look
		n int
	}{{look{team: engine.Empty, style: engine.StyleWall}, walls}, {look{team: engine.Empty, style: engine.StyleItem}, items}, {look{team: engine.Empty, style: engine.StyleValue, value: uint8(sum / max(values, 1))}, values}} {
		if o.n > bestN {
			best, bestN = o.l, o.n
		}
	}
	return best
}

// most is the index with the highest count (the lowest index on ties) and
// that count.
func most(counts []int) (int, int) {
	best, bestN := -1, 0
	for i, n := range counts {
		if n > bestN {
			best, bestN = i, n
		}
	}
	return best, bestN
}

// colourOf is team t's palette entry; teams beyond the list (a battle the
// lobby did not colour) take their own index.
func colourOf(colours []int, t int) int {
	if t < len(colours) {
		return colours[t]
	}
	return t
}
