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
// palette entry.
func (v *arenaView) draw(c canvas, th theme, colours []int, s *engine.Snapshot, r rect) {
	ascii := c.g.ascii || th.mono
	v.clamp(s.Size, r, ascii)
	g := v.geometry(s.Size, r, ascii)
	if g.k > 1 && len(v.counts) < len(s.Teams) {
		v.counts = make([]int, len(s.Teams))
	}
	empty := th.empty()
	colour := func(t int) tcell.Color {
		switch {
		case t == outside:
			return tcell.ColorReset
		case t < 0:
			return empty
		}
		return th.team(colourOf(colours, t))
	}
	// cell returns what the shown cell at (row counted from the top, col)
	// holds, after panning and centring.
	cell := func(row, col int) int {
		col += v.left - g.offX
		row += v.top - g.offY*g.per
		if col < 0 || row < 0 || col >= g.vs || row >= g.vs {
			return outside
		}
		if g.k == 1 {
			return s.At(s.Size-1-row, col)
		}
		return v.sample(s, row*g.k, col*g.k, g.k)
	}
	plain := tcell.StyleDefault
	for y := 0; y < r.h; y++ {
		for x := 0; x < r.w; x++ {
			if ascii {
				t := cell(y, x)
				switch {
				case t == outside:
					c.s.Put(r.x+x, r.y+y, " ", plain)
				case t < 0:
					c.s.Put(r.x+x, r.y+y, ".", th.dim().Background(empty))
				default:
					c.s.Put(r.x+x, r.y+y, glyphOf(t), plain.Foreground(colour(t)).Background(empty).Bold(true))
				}
				continue
			}
			up, lo := cell(2*y, x), cell(2*y+1, x)
			switch {
			case up == outside && lo == outside:
				c.s.Put(r.x+x, r.y+y, " ", plain)
			case up == lo && up < 0:
				c.s.Put(r.x+x, r.y+y, " ", plain.Background(empty))
			default:
				c.s.Put(r.x+x, r.y+y, "▀", plain.Foreground(colour(up)).Background(colour(lo)))
			}
		}
	}
}

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

// colourOf is team t's palette entry; teams beyond the list (a battle the
// lobby did not colour) take their own index.
func colourOf(colours []int, t int) int {
	if t < len(colours) {
		return colours[t]
	}
	return t
}
