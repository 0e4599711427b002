package tui

import "strings"

// Status bars shared like pictures. Every viewer draws its own status bar
// (its notes, its prompt, whether it owns the battle), but the spectators
// of one battle nearly always show the same one: the same round, speed,
// label and key hints. Drawing it (fitting its items to the width,
// measuring every form) and encoding it was, once the pictures were
// shared, most of what a viewer cost the server per frame. So a view also
// keeps the status bars its viewers asked for lately, by what they show
// (barKey): the first viewer whose bar is not there draws it, and the
// others get the same picture and the same bytes.

// barKey is everything a status bar is drawn from beyond the view's own
// key (its size, theme, glyphs): drawStatus's status, with the prompt's
// forms joined, and the bar's row.
type barKey struct {
	f                          *frame
	y                          int
	note, prompt, label, zoom  string
	touched                    item
	replay, damaged, spectator bool
}

func barKeyOf(st status, y int) barKey {
	return barKey{f: st.f, y: y, note: st.note, prompt: strings.Join(st.prompt, "\x00"), label: st.label, zoom: st.zoom,
		touched: st.touched, replay: st.replay, damaged: st.damaged, spectator: st.spectator}
}

// sharedBar is one status bar of a view and the bytes that bring a
// terminal to it from an earlier bar of the view (from[nil]: from any).
type sharedBar struct {
	key  barKey
	pic  *picture
	from map[*picture][]byte
}

// keepBars is how many status bars a view keeps: its viewers' bars of the
// newest pictures, a few kinds each (a note shown, a prompt asked).
const keepBars = 8

// bar returns the view's status bar for st at row y and the bytes that
// bring a terminal showing the bar from (nil: anything) to it; none when
// it shows it already. Like frame, it holds the view's lock, and one of
// the gate's tokens while it draws and encodes.
func (sv *sharedView) bar(st status, y int, from *picture, gate chan struct{}) (*picture, []byte) {
	key := barKeyOf(st, y)
	sv.mu.Lock()
	defer sv.mu.Unlock()
	work := slot{gate: gate}
	defer work.release()
	var b *sharedBar
	for _, x := range sv.bars {
		if x.key == key {
			b = x
			break
		}
	}
	if b == nil {
		work.take()
		// The view's screen is drawn once it has a picture, which is
		// before any bar; drawStatus writes row y only.
		drawStatus(canvas{s: sv.scr, g: sv.glyphs()}, sv.key.th, st, y, sv.key.w)
		b = &sharedBar{key: key, pic: grab(sv.scr, nil, sv.key.w, y, 1), from: map[*picture][]byte{}}
		if len(sv.bars) == keepBars {
			copy(sv.bars, sv.bars[1:])
			sv.bars = sv.bars[:keepBars-1]
		}
		sv.bars = append(sv.bars, b)
	}
	if from == b.pic {
		return b.pic, nil
	}
	known := false
	for _, x := range sv.bars {
		known = known || x.pic == from
	}
	if !known {
		from = nil
	}
	out, ok := b.from[from]
	if !ok {
		work.take()
		out = sv.codec.encode(from, b.pic)
		b.from[from] = out
	}
	return b.pic, out
}
