package replay

import (
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
)

// A round line is decoded by encoding/json into lists of structs, and an
// element of a few bytes of text ("{}," or "0,") can cost fifty times that
// once decoded: a 64 MiB line, which a compressed file of a few kilobytes
// can hold, became gigabytes. So before a line is decoded its lists are
// counted, without allocating, and each count is held to what a round of
// the battle can honestly hold (roundBounds): a line past one is damage,
// refused before anything of its size is made.

// shape is how many elements each list of a round line holds, by the
// one-letter key of its field: top for the line's own lists, printed and
// answers for the lists inside the objects of l and a, added up over
// those objects. A key that names no field is counted nowhere.
type shape struct {
	top, printed, answers [26]int
}

// keyIndex is the field of a one-letter key, as encoding/json matches
// keys (the exact name, or one equal to it when case is folded), or -1.
// raw is the key's text between its quotes.
func keyIndex(raw []byte) int {
	var r rune
	switch {
	case len(raw) == 1 && raw[0] < utf8.RuneSelf:
		r = rune(raw[0])
	case len(raw) <= 16: // an escaped or non-ASCII letter
		var s string
		if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil || utf8.RuneCountInString(s) != 1 {
			return -1
		}
		r, _ = utf8.DecodeRuneInString(s)
	default:
		return -1
	}
	r = unicode.ToUpper(unicode.ToLower(r)) // encoding/json's folding: K (Kelvin) is k, ı is i
	if r < 'A' || r > 'Z' {
		return -1
	}
	return int(r - 'A')
}

// scanShape counts the lists of line, a JSON object. It reads the text
// once and allocates nothing (but for an escaped key); nesting of any
// depth costs nothing. For text that is not valid JSON the counts mean
// nothing, and json.Unmarshal, which checks the whole text before it
// decodes any of it, refuses the line.
func scanShape(line []byte) (sh shape) {
	const deep = 5 // the levels whose containers are told apart
	var (
		depth   int
		isArr   [deep]bool
		key     [deep]int  // the key of the value being read, in an object at that depth
		count   [deep]*int // where an array at that depth counts its elements
		wantKey [deep]bool // an object at that depth awaits a key
		waiting [deep]bool // an array at that depth awaits its first element
	)
	element := func() { // a value begins at depth
		if depth < deep && depth > 0 && isArr[depth] && waiting[depth] {
			waiting[depth] = false
			if count[depth] != nil {
				*count[depth]++
			}
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		case '"':
			start := i + 1
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			if depth > 0 && depth < deep && !isArr[depth] && wantKey[depth] {
				wantKey[depth] = false
				key[depth] = keyIndex(line[start:min(i, len(line))])
				continue
			}
			element()
		case '{', '[':
			element()
			depth++
			if depth < deep {
				isArr[depth], wantKey[depth], waiting[depth], key[depth], count[depth] = c == '[', c == '{', c == '[', -1, nil
				if c == '[' {
					count[depth] = sh.list(depth, key)
				}
			}
		case '}', ']':
			depth = max(depth-1, 0)
		case ',':
			if depth > 0 && depth < deep {
				if isArr[depth] {
					waiting[depth] = true
				} else {
					wantKey[depth] = true
				}
			}
		default: // a number, true, false or null
			element()
			for i+1 < len(line) && line[i+1] != ',' && line[i+1] != ']' && line[i+1] != '}' && line[i+1] != ' ' {
				i++
			}
		}
	}
	return sh
}

// list is the counter of an array that opens at depth, keys being the keys
// read at each depth above it: a list of the line (depth 2), or one inside
// an object of l or a (depth 4); nil for any other.
func (sh *shape) list(depth int, keys [5]int) *int {
	switch {
	case depth == 2 && keys[1] >= 0:
		return &sh.top[keys[1]]
	case depth == 4 && keys[1] == 'l'-'a' && keys[3] >= 0:
		return &sh.printed[keys[3]]
	case depth == 4 && keys[1] == 'a'-'a' && keys[3] >= 0:
		return &sh.answers[keys[3]]
	}
	return nil
}

func (sh *shape) n(k byte) int { return sh.top[k-'a'] }

// roundBounds holds a round line's lists to what a round of this battle
// can hold, before the line is decoded. cells and teams are the battle's,
// alive the squares (units) its teams hold before the round, seen how many
// first problems the battle has had. The bounds follow the engine: cells
// change at most once a round, a square replicates at most once and dies
// at most once, a team has one count of faults, at most
// engine.MaxRoundLines printed lines, a few backstop events and, when
// decided outside, one record a phase; and a problem is the first of its
// (team, class, kind), of which a round can raise at most two for each
// class its squares were of (before and after become) and each team's
// own, and no more than the battle's classes allow, or one of at most
// recentProblems others.
func (h *Header) roundBounds(sh *shape, alive, seen int) error {
	cells, teams, cols, mod := h.Size*h.Size, len(h.Players), len(h.Columns), h.Game != ""
	alive = min(alive, cells)
	outside := 0
	for _, p := range h.Players {
		if p.Outside != "" {
			outside++
		}
	}
	births := sh.n('b') / 3
	backstops := 2 * engine.MaxBackstopsPerReport * teams
	records, intents, values := 2*outside, 2*intentWidth*(alive+min(births, alive)), 0
	marks, scores, born, died := 0, 0, 3*alive, 4*(alive+min(births, alive))
	if mod {
		backstops = engine.MaxModBackstopsPerRound * teams
		records, intents, values = 0, 0, engine.MaxRoundAnswers
		if outside > 0 {
			records = engine.MaxRoundAnswered
		}
		marks, scores, born, died = 2*cells, teams*(cols+1), 0, 0
	}
	firsts := 4 * (alive + min(births, alive) + teams)
	if keys := 2*teams*(len(h.Classes)+1) - seen; keys >= 0 {
		firsts = min(firsts, keys)
	}
	problems := firsts + recentProblems + min(sh.n('w'), backstops)
	a := sh.answers
	for _, b := range []struct {
		what      string
		got, most int
		cost      int // bytes an element costs once decoded, about
	}{
		{"numbers of cell changes (c)", sh.n('c'), 2 * cells, number},
		{"numbers of births (b)", sh.n('b'), born, number},
		{"numbers of deaths (d)", sh.n('d'), died, number},
		{"numbers of faults (f)", sh.n('f'), 3 * teams, number},
		{"problems (p)", sh.n('p'), problems, object},
		{"numbers of marks (m)", sh.n('m'), marks, number},
		{"numbers of score columns (v)", sh.n('v'), scores, number},
		{"backstop events (w)", sh.n('w'), backstops, object},
		{"teams' printed lines (l)", sh.n('l'), teams, object},
		{"printed lines (l.l)", sh.printed['l'-'a'], engine.MaxRoundLines * teams, object},
		{"records of answers", sh.n('a'), records, object},
		{"numbers of intents (a.i)", a['i'-'a'], intents, number},
		{"answers (a.v)", a['v'-'a'], values, object},
		{"numbers of answers' faults (a.u)", a['u'-'a'], 2 * values, number},
		{"numbers of answers' counts (a.e)", a['e'-'a'], 2 * records, number},
		{"answers' problems (a.p)", a['p'-'a'], engine.MaxAnswerProblems * records, object},
	} {
		// A list a little past its bound costs little to decode: the
		// checks after decoding say more precisely what is wrong with it.
		if b.got > b.most && (b.got-b.most)*b.cost > excessBudget {
			return fmt.Errorf("%d %s in one round (at most %d in a round of this battle)", b.got, b.what, b.most)
		}
	}
	return nil
}

// What an element of a round's lists costs once decoded, about, and how
// much a line past its bounds may cost before it is refused undecoded.
const (
	number       = 16  // in its list, and in the event it is part of
	object       = 256 // a struct of its list, and what is made of it
	excessBudget = 16 << 20
)

// sized is an empty round whose lists have room for the elements the line
// holds, so that decoding it makes each list once, at its size, rather
// than growing it (encoding/json appends to a list it is given).
func (sh *shape) sized() round {
	return round{C: sized[int32](sh.n('c')), B: sized[int](sh.n('b')), D: sized[int](sh.n('d')), F: sized[int](sh.n('f')),
		P: sized[problem](sh.n('p')), M: sized[int32](sh.n('m')), V: sized[int](sh.n('v')), W: sized[backstop](sh.n('w')),
		L: sized[printed](sh.n('l')), A: sized[answered](sh.n('a'))}
}
