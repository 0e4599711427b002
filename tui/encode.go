package tui

import (
	"bytes"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// A picture and its encoding: what many viewers of one battle share (see
// share.go). tcell turns a session's cells into terminal bytes one viewer
// at a time, which with many viewers of the same battle costs more than
// the battle itself; a termCodec turns a picture into bytes once, for
// every viewer whose terminal is the same.

// shownCell is one cell of a picture: its text, its style (an index into
// the picture's styles, which keeps a big picture small) and width.
type shownCell struct {
	str   string
	style uint32
	width uint8
}

// picture is rows of a screen as drawn: the part of a battle screen that
// every viewer with the same view sees alike (the rows above the status
// bar, drawn from one frame), or a viewer's own status bar. It is
// immutable once made; viewers keep the last one they sent.
type picture struct {
	f      *frame // drawn from (nil for a status bar)
	top    int    // the screen row of its first row
	w, h   int
	cells  []shownCell
	styles []tcell.Style
}

// grab copies rows top to top+rows-1 of a screen into a picture.
func grab(s tcell.Screen, f *frame, w, top, rows int) *picture {
	p := &picture{f: f, top: top, w: w, h: rows, cells: make([]shownCell, w*rows)}
	index := map[tcell.Style]uint32{}
	for y := range rows {
		for x := range w {
			str, st, width := s.Get(x, top+y)
			i, ok := index[st]
			if !ok {
				i = uint32(len(p.styles))
				index[st] = i
				p.styles = append(p.styles, st)
			}
			p.cells[y*w+x] = shownCell{str: str, style: i, width: uint8(min(max(width, 0), 2))}
		}
	}
	return p
}

// same reports whether cell i of p and of q look the same.
func same(p, q *picture, i int) bool {
	a, b := p.cells[i], q.cells[i]
	return a.str == b.str && a.width == b.width && p.styles[a.style] == q.styles[b.style]
}

// termCodec encodes pictures for one kind of terminal as tcell would: the
// same cursor moves, attributes and colours (mapped onto the terminal's
// palette the way tcell maps them), so that a viewer's terminal shows what
// tcell would have drawn; only where a style differs from the one before
// in its colours alone does it send the colours without tcell's reset
// (restyle.go). Escape sequences for a style are made once and kept.
//
// Concurrency: a termCodec is used by one goroutine at a time: a shared
// view's under the view's lock, a session's (for its status bar) by the
// session.
type termCodec struct {
	ti        *terminfo.Terminfo
	colors    int // the session screen's Colors(): 0 none, 1<<24 truecolour
	truecolor bool
	palette   []tcell.Color
	mapped    map[tcell.Color]tcell.Color
	styles    map[tcell.Style]string
	changes   map[[2]tcell.Style]string // restyle's answers
	gotos     map[int]string
}

// maxCodecStyles bounds the style cache; a battle screen uses a few dozen.
const maxCodecStyles = 4096

func newTermCodec(ti *terminfo.Terminfo, colors int) *termCodec {
	c := &termCodec{ti: ti, colors: colors, mapped: map[tcell.Color]tcell.Color{},
		styles: map[tcell.Style]string{}, changes: map[[2]tcell.Style]string{}, gotos: map[int]string{}}
	c.truecolor = colors == 1<<24 && (ti.SetFgBgRGB != "" || ti.SetFgRGB != "" || ti.SetBgRGB != "")
	n := 0
	if colors > 0 {
		n = min(ti.Colors, 256)
	}
	for i := range n {
		col := tcell.Color(i) | tcell.ColorValid
		c.palette = append(c.palette, col)
		c.mapped[col] = col
	}
	return c
}

// encode is the bytes that turn a terminal showing prev (nil: anything)
// into one showing next: every cell when prev is nil or another size,
// else the cells that differ. It leaves the cursor and the attributes
// wherever they end; tcell assumes nothing about them when it next draws.
func (c *termCodec) encode(prev, next *picture) []byte {
	if prev != nil && (prev.w != next.w || prev.h != next.h || prev.top != next.top) {
		prev = nil
	}
	var b bytes.Buffer
	cx, cy := -1, -1
	var cur tcell.Style
	styled := false
	for y := range next.h {
		for x := 0; x < next.w; {
			i := y*next.w + x
			cell := next.cells[i]
			width := max(int(cell.width), 1)
			// After a wide character the next cell is drawn again, as
			// tcell does: the wide one may have covered it.
			if prev != nil && same(prev, next, i) && (x == 0 || prev.cells[i-1].width < 2) {
				x += width
				continue
			}
			if cx != x || cy != y {
				b.WriteString(c.gotoXY(x, next.top+y))
			}
			if st := next.styles[cell.style]; !styled {
				b.WriteString(c.style(st))
				cur, styled = st, true
			} else if st != cur {
				b.WriteString(c.restyle(cur, st))
				cur = st
			}
			str := cell.str
			if str == "" {
				str = " "
			}
			if x > next.w-width {
				str, width = " ", 1
			}
			b.WriteString(str)
			cx, cy = x+width, y
			x += width
		}
	}
	return b.Bytes()
}

func (c *termCodec) gotoXY(x, y int) string {
	k := y<<16 | x
	s, ok := c.gotos[k]
	if !ok {
		if len(c.gotos) >= 1<<16 {
			clear(c.gotos)
		}
		s = c.ti.TGoto(x, y)
		c.gotos[k] = s
	}
	return s
}

// style is the escape sequence that sets st from any state, as tcell's
// drawCell sends it.
func (c *termCodec) style(st tcell.Style) string {
	if s, ok := c.styles[st]; ok {
		return s
	}
	ti := c.ti
	var b bytes.Buffer
	ti.TPuts(&b, ti.AttrOff)
	fg, bg, attrs := st.Decompose()
	attrs = c.fgBg(&b, fg, bg, attrs)
	if attrs&tcell.AttrBold != 0 {
		ti.TPuts(&b, ti.Bold)
	}
	if st.GetUnderlineStyle() != tcell.UnderlineStyleNone {
		ti.TPuts(&b, ti.Underline)
	}
	for _, a := range []struct {
		bit tcell.AttrMask
		seq string
	}{{tcell.AttrReverse, ti.Reverse}, {tcell.AttrBlink, ti.Blink}, {tcell.AttrDim, ti.Dim}, {tcell.AttrItalic, ti.Italic}, {tcell.AttrStrikeThrough, ti.StrikeThrough}} {
		if attrs&a.bit != 0 {
			ti.TPuts(&b, a.seq)
		}
	}
	if len(c.styles) >= maxCodecStyles {
		clear(c.styles)
	}
	c.styles[st] = b.String()
	return c.styles[st]
}

// fgBg writes the colours as tcell's sendFgBg does and returns the
// attributes to send (without colours a dark foreground becomes reverse
// video).
func (c *termCodec) fgBg(b *bytes.Buffer, fg, bg tcell.Color, attrs tcell.AttrMask) tcell.AttrMask {
	ti := c.ti
	if c.colors == 0 {
		if !fg.Valid() {
			return attrs
		}
		if tcell.FindColor(fg, []tcell.Color{tcell.ColorBlack, tcell.ColorWhite}) == tcell.ColorBlack {
			return attrs ^ tcell.AttrReverse
		}
		return attrs
	}
	if fg == tcell.ColorReset || bg == tcell.ColorReset {
		ti.TPuts(b, ti.ResetFgBg)
	}
	if c.truecolor {
		if ti.SetFgBgRGB != "" && fg.IsRGB() && bg.IsRGB() {
			r1, g1, b1 := fg.RGB()
			r2, g2, b2 := bg.RGB()
			ti.TPuts(b, ti.TParm(ti.SetFgBgRGB, int(r1), int(g1), int(b1), int(r2), int(g2), int(b2)))
			return attrs
		}
		if fg.IsRGB() && ti.SetFgRGB != "" {
			r, g, bl := fg.RGB()
			ti.TPuts(b, ti.TParm(ti.SetFgRGB, int(r), int(g), int(bl)))
			fg = tcell.ColorDefault
		}
		if bg.IsRGB() && ti.SetBgRGB != "" {
			r, g, bl := bg.RGB()
			ti.TPuts(b, ti.TParm(ti.SetBgRGB, int(r), int(g), int(bl)))
			bg = tcell.ColorDefault
		}
	}
	fg, bg = c.mapColour(fg), c.mapColour(bg)
	if fg.Valid() && bg.Valid() && ti.SetFgBg != "" {
		ti.TPuts(b, ti.TParm(ti.SetFgBg, int(fg&0xff), int(bg&0xff)))
		return attrs
	}
	if fg.Valid() && ti.SetFg != "" {
		ti.TPuts(b, ti.TParm(ti.SetFg, int(fg&0xff)))
	}
	if bg.Valid() && ti.SetBg != "" {
		ti.TPuts(b, ti.TParm(ti.SetBg, int(bg&0xff)))
	}
	return attrs
}

// mapColour is the terminal's palette entry nearest col.
func (c *termCodec) mapColour(col tcell.Color) tcell.Color {
	if !col.Valid() {
		return col
	}
	if v, ok := c.mapped[col]; ok {
		return v
	}
	v := tcell.FindColor(col, c.palette)
	if len(c.mapped) < maxCodecStyles {
		c.mapped[col] = v
	}
	return v
}
