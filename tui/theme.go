package tui

import (
	"github.com/gdamore/tcell/v2"
)

// depth is how many colours the UI asks the terminal for: at first the
// most the terminal gets (depthOf), and `c` cycles through the depths up
// to that one, so the depth named is always the depth sent.
type depth int

const (
	depth16 depth = iota
	depth256
	depthTrue
	depthCount
)

func (d depth) String() string {
	switch d {
	case depth16:
		return "16 colours"
	case depth256:
		return "256 colours"
	}
	return "24-bit colour"
}

// depthOf is the deepest colour a screen reporting colors (tcell's
// Screen.Colors) really gets: tcell reports 1<<24 only when it sends
// 24-bit codes (its terminfo has RGB sequences, which COLORTERM=truecolor
// or a *-truecolor TERM adds, and TCELL_TRUECOLOR=disable takes away);
// below that it maps any colour asked for onto the terminal's palette, so
// asking for more than it reports changes nothing the terminal sees.
func depthOf(colors int) depth {
	switch {
	case colors >= 1<<24:
		return depthTrue
	case colors >= 256:
		return depth256
	}
	return depth16
}

// nextDepth is the depth after d when the user cycles (c), up to most.
func nextDepth(d, most depth) depth { return (d + 1) % (most + 1) }

// depthNote says what the terminal gets at depth d, most being the most
// it takes.
func depthNote(d, most depth, mono bool) string {
	switch {
	case mono:
		return "this terminal shows no colours (teams are told apart by glyphs)"
	case d < most:
		return d.String()
	case most == depthTrue:
		return d.String() + ", the most this terminal takes"
	}
	return d.String() + ", the most this terminal takes (24-bit: COLORTERM=truecolor)"
}

// teamColour is one entry of the team palette at every depth.
type teamColour struct {
	name string
	c16  int // xterm palette index below 16
	c256 int // xterm 256-colour palette index
	rgb  int32
}

// palette: distinct on a dark background and from each other, in the order
// teams get them (the most distinct first).
var palette = []teamColour{
	{"red", 9, 196, 0xff4b4b},
	{"green", 10, 46, 0x3ddc4a},
	{"blue", 12, 33, 0x3b8bff},
	{"yellow", 11, 226, 0xffe14b},
	{"magenta", 13, 201, 0xf24bff},
	{"cyan", 14, 51, 0x3fe0e0},
	{"orange", 3, 208, 0xff9326},
	{"purple", 5, 135, 0xa46cff},
	{"lime", 2, 154, 0xb4f03c},
	{"pink", 1, 211, 0xff94b8},
	{"teal", 6, 37, 0x1fa8a0},
	{"white", 15, 253, 0xe6e6e6},
}

// theme turns palette indexes into tcell colours at the current depth.
type theme struct {
	depth depth
	most  depth // the deepest the terminal really gets (depthOf)
	// mono: the terminal has no colours; teams are told apart by glyphs.
	mono bool
}

func (t theme) team(i int) tcell.Color {
	if t.mono {
		return tcell.ColorReset
	}
	c := palette[i%len(palette)]
	switch t.depth {
	case depth16:
		return tcell.PaletteColor(c.c16)
	case depth256:
		return tcell.PaletteColor(c.c256)
	}
	return tcell.NewHexColor(c.rgb)
}

// soft is team i's colour, softer: half way to the empty cell's colour.
// A rule mod draws the ground a team holds (paint) with it. With 16
// colours a bright colour's soft shade is its dark twin.
func (t theme) soft(i int) tcell.Color {
	if t.mono {
		return tcell.ColorReset
	}
	c := palette[i%len(palette)]
	rgb := blend(c.rgb, 0x1e1e1e)
	switch t.depth {
	case depth16:
		if c.c16 >= 8 {
			return tcell.PaletteColor(c.c16 - 8)
		}
		return tcell.PaletteColor(c.c16)
	case depth256:
		return tcell.PaletteColor(nearest256(rgb))
	}
	return tcell.NewHexColor(rgb)
}

// blend is the colour half way between a and b.
func blend(a, b int32) int32 {
	var out int32
	for shift := 0; shift <= 16; shift += 8 {
		x, y := (a>>shift)&0xff, (b>>shift)&0xff
		out |= ((x + y) / 2) << shift
	}
	return out
}

// nearest256 is the xterm 6×6×6 cube entry closest to rgb.
func nearest256(rgb int32) int {
	level := func(v int32) int {
		if v < 48 {
			return 0
		}
		return min(int(v-35)/40, 5)
	}
	r, g, b := level(rgb>>16&0xff), level(rgb>>8&0xff), level(rgb&0xff)
	return 16 + 36*r + 6*g + b
}

// wall is the colour of impassable terrain: grey, darker than items.
func (t theme) wall() tcell.Color { return t.neutral(8, 240, 0x585858) }

// item is the colour of something to pick up: a bright neutral.
func (t theme) item() tcell.Color { return t.neutral(15, 230, 0xfff4d0) }

// shade is neutral ground of value v, 0 to 255: dark to light grey.
func (t theme) shade(v uint8) tcell.Color {
	g := int32(0x26) + int32(v)*(0xe0-0x26)/255
	return t.neutral([]int{0, 8, 7, 15}[v/64], 232+int(v)*24/256, g<<16|g<<8|g)
}

// neutral is a colour that belongs to no team, given at every depth.
func (t theme) neutral(c16, c256 int, rgb int32) tcell.Color {
	switch {
	case t.mono:
		return tcell.ColorReset
	case t.depth == depth16:
		return tcell.PaletteColor(c16)
	case t.depth == depth256:
		return tcell.PaletteColor(c256)
	}
	return tcell.NewHexColor(rgb)
}

// empty is the colour of an empty arena cell: dark, but not the terminal's
// own background, so the arena's extent shows.
func (t theme) empty() tcell.Color { return t.neutral(0, 235, 0x1e1e1e) }

func (t theme) dim() tcell.Style {
	if t.mono {
		return tcell.StyleDefault
	}
	if t.depth == depth16 {
		return tcell.StyleDefault.Foreground(tcell.PaletteColor(8))
	}
	return tcell.StyleDefault.Foreground(tcell.PaletteColor(245))
}

func (t theme) accent() tcell.Style {
	if t.mono {
		return tcell.StyleDefault.Bold(true)
	}
	return tcell.StyleDefault.Foreground(tcell.PaletteColor(14)).Bold(true)
}

func (t theme) warn() tcell.Style {
	if t.mono {
		return tcell.StyleDefault.Bold(true)
	}
	return tcell.StyleDefault.Foreground(tcell.PaletteColor(9))
}
