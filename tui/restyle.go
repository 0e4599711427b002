package tui

import "github.com/gdamore/tcell/v2"

// Changing colours without resetting everything. tcell sets every cell's
// style from scratch: attributes off, then the colours and attributes of
// the new style, some 26 bytes on a 256-colour xterm. A picture of the
// arena is half blocks whose two colours change from one cell to the
// next, so that was most of what a viewer received (83% of the bytes of
// a frame of the marching battle). Where the new style differs from the
// one in force only in its colours, and all four colours are real ones
// (not the terminal's default, which only a reset brings back), the codec
// sends just the colour that changed, the way tcell would send that
// colour: the terminal ends up in the same state. The colours of the new
// style must be real ones (not the terminal's default, which only a
// reset brings back); the old ones may be anything.

// restyle is the escape sequence that takes a terminal whose attributes
// were set to from (by this codec) to to.
func (c *termCodec) restyle(from, to tcell.Style) string {
	k := [2]tcell.Style{from, to}
	if s, ok := c.changes[k]; ok {
		return s
	}
	s, ok := c.colourChange(from, to)
	if !ok {
		s = c.style(to)
	}
	if len(c.changes) >= maxCodecStyles {
		clear(c.changes)
	}
	c.changes[k] = s
	return s
}

// colourChange is the sequence that sets only the colours to's differ
// in from from's, when the styles differ in nothing else, to's colours
// are real ones and the terminal can set each colour on its own.
func (c *termCodec) colourChange(from, to tcell.Style) (string, bool) {
	ffg, fbg, _ := from.Decompose()
	tfg, tbg, _ := to.Decompose()
	if c.colors == 0 || !tfg.Valid() || !tbg.Valid() || from.Foreground(tfg).Background(tbg) != to {
		return "", false
	}
	fg, bg := c.colourSeq(tfg, false), c.colourSeq(tbg, true)
	if fg == "" || bg == "" {
		return "", false
	}
	if ffg.Valid() && fg == c.colourSeq(ffg, false) {
		fg = ""
	}
	if fbg.Valid() && bg == c.colourSeq(fbg, true) {
		bg = ""
	}
	if fg != "" && bg != "" {
		if both := c.bothSeq(tfg, tbg); both != "" {
			return both, true
		}
	}
	return fg + bg, true
}

// colourSeq is what sets the foreground (or the background) to col alone
// as tcell's sendFgBg sets it: in 24-bit colour where the terminal has it,
// else the palette entry nearest; "" when the terminal has no sequence
// for one colour alone.
func (c *termCodec) colourSeq(col tcell.Color, bg bool) string {
	ti := c.ti
	if c.truecolor && col.IsRGB() {
		seq := ti.SetFgRGB
		if bg {
			seq = ti.SetBgRGB
		}
		if seq != "" {
			r, g, b := col.RGB()
			return ti.TParm(seq, int(r), int(g), int(b))
		}
	}
	seq := ti.SetFg
	if bg {
		seq = ti.SetBg
	}
	if seq == "" {
		return ""
	}
	return ti.TParm(seq, int(c.mapColour(col)&0xff))
}

// bothSeq is the one sequence that sets both colours, as tcell sends it,
// when the terminal has one for this pair; else "".
func (c *termCodec) bothSeq(fg, bg tcell.Color) string {
	ti := c.ti
	switch rgb := c.truecolor && fg.IsRGB(); {
	case rgb && bg.IsRGB() && ti.SetFgBgRGB != "" && ti.SetFgRGB != "" && ti.SetBgRGB != "":
		r1, g1, b1 := fg.RGB()
		r2, g2, b2 := bg.RGB()
		return ti.TParm(ti.SetFgBgRGB, int(r1), int(g1), int(b1), int(r2), int(g2), int(b2))
	case !rgb && !(c.truecolor && bg.IsRGB()) && ti.SetFgBg != "":
		return ti.TParm(ti.SetFgBg, int(c.mapColour(fg)&0xff), int(c.mapColour(bg)&0xff))
	}
	return ""
}
