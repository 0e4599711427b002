package luabind

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// The game table a rule mod's rules get: the battle's facts and the
// functions through which they change the board, draw from their random
// stream and keep constants. Apart from rules.go, which loads the rules and
// runs their size, setup, turns and resolve.

// styles are the style names rules use with game.set.
var styles = map[string]engine.Style{
	"empty": engine.StyleEmpty, "unit": engine.StyleUnit, "trail": engine.StyleTrail,
	"wall": engine.StyleWall, "item": engine.StyleItem, "value": engine.StyleValue,
}

var styleNames = func() []string {
	out := make([]string, len(styles))
	for name, s := range styles {
		out[s] = name
	}
	return out
}()

// luaForget is game.forget(team, unit): the unit is gone, and the team's
// private table for it can go too.
func (r *Rules) luaForget(L *lua.LState) int {
	team, unit := wholeArg(L, 1), wholeArg(L, 2)
	if team < 0 || team >= r.board.Teams() {
		argError(L, 1, fmt.Sprintf("the team must be from 0 to %d", r.board.Teams()-1))
	}
	if unit < 0 || unit >= maxUnit {
		argError(L, 2, fmt.Sprintf("the unit must be from 0 to %d", maxUnit-1))
	}
	if r.forgotten == nil {
		r.forgotten = make([][]uint64, r.board.Teams())
	}
	bits := r.forgotten[team]
	if bits == nil {
		bits = make([]uint64, maxUnit/64)
		r.forgotten[team] = bits
		r.tm.goBytes += maxUnit / 8
	}
	if bits[unit/64]&(1<<(unit%64)) != 0 {
		return 0
	}
	bits[unit/64] |= 1 << (unit % 64)
	r.board.Forget(team, unit)
	return 0
}

// gameTable builds the table the rules get as game: the facts of the
// battle and the functions that change the board.
func (r *Rules) gameTable() *lua.LTable {
	L := r.tm.L
	g := L.NewTable()
	fn := func(name string, f lua.LGFunction) { g.RawSetString(name, L.NewFunction(f)) }
	fn("round", func(L *lua.LState) int { L.Push(lua.LNumber(r.board.Round())); return 1 })
	fn("size", func(L *lua.LState) int { L.Push(lua.LNumber(r.board.Size())); return 1 })
	fn("rounds", func(L *lua.LState) int { L.Push(lua.LNumber(r.board.Rounds())); return 1 })
	fn("teams", func(L *lua.LState) int { L.Push(lua.LNumber(r.board.Teams())); return 1 })
	fn("wrap", func(L *lua.LState) int { L.Push(lua.LBool(r.board.Wrap())); return 1 })
	fn("set", r.luaSet)
	fn("get", r.luaGet)
	fn("score", r.luaScore)
	fn("finish", func(L *lua.LState) int {
		w := -1 // nil: a draw
		if L.Get(1) != lua.LNil {
			w = wholeArg(L, 1)
			if w < 0 || w >= r.board.Teams() {
				argError(L, 1, fmt.Sprintf("the winner must be a team from 0 to %d, or nil for a draw", r.board.Teams()-1))
			}
		}
		r.board.Finish(w)
		return 0
	})
	fn("forget", r.luaForget)
	fn("random", r.luaRandom)
	fn("constant", r.luaConstant)
	fn("option", r.luaOption)
	return g
}

func (r *Rules) luaSet(L *lua.LState) int {
	row, col := wholeArg(L, 1), wholeArg(L, 2)
	team := engine.Empty
	if L.Get(3) != lua.LNil {
		team = wholeArg(L, 3)
	}
	name := optStrArg(L, 4, "unit")
	if team == engine.Empty && L.Get(4) == lua.LNil {
		name = "empty"
	}
	s, ok := styles[name]
	if !ok {
		argError(L, 4, fmt.Sprintf("style must be one of %s", strings.Join(styleNames, ", ")))
	}
	value := optIntArg(L, 5, 0)
	if value < 0 || value > 255 {
		argError(L, 5, "value must be from 0 to 255")
	}
	if err := r.board.Set(row, col, team, engine.NewMark(s, uint8(value))); err != nil {
		L.RaiseError("game.set: %v", err)
	}
	return 0
}

func (r *Rules) luaGet(L *lua.LState) int {
	team, m, err := r.board.At(wholeArg(L, 1), wholeArg(L, 2))
	if err != nil {
		L.Push(lua.LNil)
		L.Push(lua.LString("off"))
		return 2
	}
	if team == engine.Empty {
		L.Push(lua.LNil)
	} else {
		L.Push(lua.LNumber(team))
	}
	L.Push(lua.LString(styleNames[m.Style()]))
	L.Push(lua.LNumber(m.Value()))
	return 3
}

// luaScore is game.score(team, column [, value]): sets a score column when
// value is given; returns the column's value.
func (r *Rules) luaScore(L *lua.LState) int {
	team := wholeArg(L, 1)
	col := -1
	switch c := L.Get(2).(type) {
	case lua.LString:
		for i, name := range r.board.Columns() {
			if name == string(c) {
				col = i
			}
		}
	case lua.LNumber:
		if n, ok := toWhole(float64(c)); ok {
			col = n - 1
		}
	}
	if col < 0 || col >= len(r.board.Columns()) {
		// Named by numberString or its type, never String(): that is a Go
		// address for a table, and machine-dependent for 2^63.
		what, ok := valueString(L.Get(2))
		if !ok {
			what = "of type " + L.Get(2).Type().String()
		}
		argError(L, 2, fmt.Sprintf("no column %s; the columns are %s", engine.SafeText(what), strings.Join(r.board.Columns(), ", ")))
	}
	if L.Get(3) != lua.LNil {
		if err := r.board.SetValue(team, col, wholeArg(L, 3)); err != nil {
			L.RaiseError("game.score: %v", err)
		}
	}
	L.Push(lua.LNumber(r.board.Value(team, col)))
	return 1
}

// luaRandom is math.random's contract over the rules' seeded stream,
// arguments read as math.random reads them (randomRange, sandbox.go).
func (r *Rules) luaRandom(L *lua.LState) int {
	lo, hi, whole := randomRange(L, func(n int) int { return r.tm.mathIntArg(L, n) })
	rng := r.board.Rand()
	if !whole {
		L.Push(lua.LNumber(float64(rng.Uint64()>>11) / (1 << 53)))
		return 1
	}
	L.Push(lua.LNumber(lo + rng.IntN(hi-lo+1)))
	return 1
}

// luaConstant is game.constant(t): the rules promise never to change t
// (a map that stays the same all battle), so it is copied out of the rules
// once, and each team's VM builds its copy once and hands the same table to
// every call. A player that changes its copy only misleads its own team.
func (r *Rules) luaConstant(L *lua.LState) int {
	t := checkTable(L, 1)
	if r.constants == nil {
		r.constants = map[*lua.LTable]*plainTable{}
	}
	if _, ok := r.constants[t]; !ok {
		// All constants together hold at most maxPlainEntries entries,
		// and the copy is bounded by what is left of the call's budget:
		// charged per entry, as values moved, and to the rules' memory
		// for as long as the battle lasts.
		tm := r.tm
		c := newPlainCopier()
		c.limit = int(min(int64(maxPlainEntries-r.constEntries), tm.budget.remaining()*valuesPerInstruction))
		p, err := c.plain(t)
		if err != nil {
			argError(L, 1, err.Error())
		}
		tm.chargeValues(L, int64(c.entries))
		pt := p.(*plainTable)
		markConstant(pt)
		r.constants[t] = pt
		r.constList = append(r.constList, t)
		tm.roots = append(tm.roots, t)
		r.constEntries += pt.entries
		tm.goBytes += plainBytes(pt)
	}
	L.Push(t)
	return 1
}

// markConstant marks a plain table and the tables in it as constant.
func markConstant(t *plainTable) {
	t.constant = true
	for i := range t.keys {
		if k, ok := t.keys[i].(*plainTable); ok {
			markConstant(k)
		}
		if v, ok := t.vals[i].(*plainTable); ok {
			markConstant(v)
		}
	}
}

// luaOption is game.option(name): the configured value of one of the
// options the rules declare, or its default.
func (r *Rules) luaOption(L *lua.LState) int {
	name := strArg(L, 1)
	v, ok := r.options[name]
	if !ok {
		argError(L, 1, fmt.Sprintf("%q is not one of the options the rules declare", name))
	}
	switch x := v.(type) {
	case float64:
		L.Push(lua.LNumber(x))
	case bool:
		L.Push(lua.LBool(x))
	case string:
		L.Push(ownString(x)) // not shared with another option's (census.go)
	}
	return 1
}
