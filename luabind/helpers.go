package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Helpers every player would otherwise write for itself: direction
// arithmetic, and the team's plans for the round. Squares of a team only see
// their neighbours, so the easy way to stop two of them stepping into the
// same cell (and both dying) is to note the cells already taken this round.
// The plans live in Go, are cleared at the start of every round and are
// consulted in square id order, so they are as deterministic as the rest.

// dirArg reads a direction argument: 1..8 or a compass name.
func dirArg(L *lua.LState, n int) engine.Direction {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		if n, ok := toWhole(float64(v)); ok && lua.LNumber(n) == v && n >= 1 && n <= 8 {
			return engine.Direction(n - 1)
		}
	case lua.LString:
		if d, ok := engine.ParseDirection(string(v)); ok {
			return d
		}
	}
	argError(L, n, "direction expected (NW, N, NE, E, SE, S, SW, W or 1..8)")
	return 0
}

// luaTurn is turn(dir, eighths): the direction turned clockwise by eighths
// of a circle (negative turns anticlockwise).
func luaTurn(L *lua.LState) int {
	d := int(dirArg(L, 1))
	n := optIntArg(L, 2, 1)
	L.Push(lua.LNumber((d+n%8+8)%8 + 1))
	return 1
}

// luaOpposite is opposite(dir).
func luaOpposite(L *lua.LState) int {
	L.Push(lua.LNumber(int(dirArg(L, 1).Opposite()) + 1))
	return 1
}

// luaNeighbour is neighbour(row, col, dir): the row and column one step
// away, wrapping at the edges; nil beyond the edge of an arena that does not
// wrap.
func (tm *Team) luaNeighbour(L *lua.LState) int {
	row, col := intArg(L, 1), intArg(L, 2)
	r, c, ok := tm.step(row, col, dirArg(L, 3))
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(r))
	L.Push(lua.LNumber(c))
	return 2
}

func (tm *Team) step(row, col int, d engine.Direction) (int, int, bool) {
	n := tm.facts.Size
	dr, dc := d.Offset()
	r, c := row+dr, col+dc
	if r < 0 || r >= n || c < 0 || c >= n {
		if !tm.facts.Wrap {
			return 0, 0, false
		}
		r, c = (r%n+n)%n, (c%n+n)%n
	}
	return r, c, true
}

// planCell is the cell one step from the calling square, or -1.
func (tm *Team) planCell(L *lua.LState, n int) int {
	if tm.cur == nil {
		L.RaiseError("plans can only be used from run")
	}
	r, c, ok := tm.step(tm.cur.Row, tm.cur.Col, dirArg(L, n))
	if !ok {
		return -1
	}
	return r*tm.facts.Size + c
}

// luaPlan is plan(dir [, what]): notes what the team means to do with the
// cell in that direction this round ("move" when left out).
func (tm *Team) luaPlan(L *lua.LState) int {
	cell := tm.planCell(L, 1)
	what := L.Get(2)
	if what == lua.LNil {
		what = lua.LString("move")
	}
	if cell >= 0 {
		tm.plans[cell] = what
	}
	return 0
}

// luaPlanned is planned(dir): what the team noted for that cell this
// round, or nil.
func (tm *Team) luaPlanned(L *lua.LState) int {
	cell := tm.planCell(L, 1)
	if v, ok := tm.plans[cell]; ok && cell >= 0 {
		L.Push(v)
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

// luaFree is free(dir): the cell was empty at the start of the round and no
// square of the team has planned anything there.
func (tm *Team) luaFree(L *lua.LState) int {
	cell := tm.planCell(L, 1)
	d := dirArg(L, 1)
	_, taken := tm.plans[cell]
	L.Push(lua.LBool(cell >= 0 && tm.cur.View[d] == engine.Empty && !taken))
	return 1
}
