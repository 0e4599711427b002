package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// SquareBattleProtocol is what a rules script declares (protocol =
// "squarebattle") to keep SquareBattle's players and replace only its rules:
// placement, what a round's intents do, and the end. Such rules run as an
// engine.Resolver.
const SquareBattleProtocol = "squarebattle"

// Resolver runs a rules script of the SquareBattle protocol
// (engine.Resolver): place(game), resolve(game, acts, next_id) and
// over(game, squares). It runs in its own sandboxed state under the rules
// budget, like Rules.
type Resolver struct {
	*rulesVM
	place         *lua.LFunction
	resolve       *lua.LFunction
	over          *lua.LFunction
	size, teams   int
	round, rounds int
	wrap          bool
	placement     *engine.Rand
	killers       *engine.Rand
	classes       []string
	classIDs      map[string]engine.ClassID
	actNames      [4]lua.LValue
	childNames    []lua.LValue
	acts          actPool
	actList       engineList // resolve's acts, as tables
	columns       bool       // the rules take their acts as columns (actcolumns.go)
	actColumns    actColumns
	squareList    engineList // over's squares
	vals          []lua.LValue
}

// NewResolver loads the rules class of cat (a folder holding rules.lua) for
// a SquareBattle battle whose classes are classes.
func NewResolver(cat *Catalog, rules engine.ClassID, classes []string, wrap bool, budget int, extra ...Global) (*Resolver, error) {
	vm, err := loadRulesVM(cat, rules, 0, 1, budget, extra...)
	if err != nil {
		return nil, err
	}
	r := &Resolver{rulesVM: vm, wrap: wrap, classes: classes, classIDs: map[string]engine.ClassID{}}
	for i, c := range classes {
		r.classIDs[c] = engine.ClassID(i)
		r.childNames = append(r.childNames, lua.LString(c))
	}
	for i, a := range []engine.Action{engine.Wait, engine.Move, engine.Attack, engine.Replicate} {
		r.actNames[i] = lua.LString(a.String())
	}
	r.place, r.resolve, r.over = vm.function("place"), vm.function("resolve"), vm.function("over")
	if r.place == nil || r.resolve == nil || r.over == nil {
		vm.Close()
		return nil, fmt.Errorf("%s: a rules table of the squarebattle protocol needs place, resolve and over functions", r.file)
	}
	if r.columns, err = actsForm(vm.cs.table, r.file); err != nil {
		vm.Close()
		return nil, err
	}
	r.game = r.gameTable()
	vm.tm.roots = []lua.LValue{r.game}
	return r, nil
}

func (r *Resolver) gameTable() *lua.LTable {
	L := r.tm.L
	g := L.NewTable()
	num := func(name string, v func() int) {
		g.RawSetString(name, L.NewFunction(func(L *lua.LState) int { L.Push(lua.LNumber(v())); return 1 }))
	}
	num("size", func() int { return r.size })
	num("teams", func() int { return r.teams })
	num("round", func() int { return r.round })
	num("rounds", func() int { return r.rounds })
	g.RawSetString("wrap", L.NewFunction(func(L *lua.LState) int { L.Push(lua.LBool(r.wrap)); return 1 }))
	draw := func(stream func() *engine.Rand) lua.LGFunction {
		return func(L *lua.LState) int {
			n := wholeArg(L, 1)
			if n < 1 {
				argError(L, 1, "must be at least 1")
			}
			L.Push(lua.LNumber(stream().IntN(n)))
			return 1
		}
	}
	// placement(n) and pick(n) draw a number from 0 to n-1 from the
	// battle's placement and killer streams, exactly as the built-in rules
	// do, so the same seed places and picks alike.
	g.RawSetString("placement", L.NewFunction(draw(func() *engine.Rand { return r.placement })))
	g.RawSetString("pick", L.NewFunction(draw(func() *engine.Rand { return r.killers })))
	return g
}

// Place asks place(game) for one starting cell per team.
func (r *Resolver) Place(size, teams int, placement *engine.Rand) ([]int, error) {
	r.size, r.teams, r.placement = size, teams, placement
	ret, err := r.run("place", r.place, 1)
	if err != nil {
		return nil, err
	}
	return r.ints(nil, ret[0], "place", teams)
}

// ints reads a list of whole numbers the rules returned, of at most want
// entries (the engine checks the exact count). The list's border is a
// number the script controls (a single t[2^40] = 0 makes it 2^40), so
// nothing is sized by it: the entries are read one by one and the list is
// refused as soon as it is longer than it can be. The numbers are appended
// to dst[:0].
func (r *Resolver) ints(dst []int, v lua.LValue, what string, want int) ([]int, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("%s: %s returned a %s, not a list of cells", r.file, what, v.Type())
	}
	n := listLen(t)
	if n > want {
		return nil, fmt.Errorf("%s: %s returned %d cells; at most %d are wanted", r.file, what, n, want)
	}
	out := dst[:0]
	if cap(out) < n {
		out = make([]int, 0, n)
	}
	out = out[:n]
	for i := range out {
		num, ok := listAt(t, i+1).(lua.LNumber)
		if !ok {
			return nil, fmt.Errorf("%s: %s: entry %d is not a number", r.file, what, i+1)
		}
		c, ok := toWhole(float64(num))
		if !ok || float64(c) != float64(num) {
			return nil, fmt.Errorf("%s: %s: entry %d is %s, not a cell", r.file, what, i+1, numberString(num))
		}
		out[i] = c
	}
	return out, nil
}

// Resolve hands the round's acts to resolve(game, acts, next_id), which
// returns dest (a cell per act), births and deaths.
func (r *Resolver) Resolve(round int, acts []engine.Act, nextID engine.SquareID, killers *engine.Rand, out *engine.Outcome) error {
	r.round, r.killers = round, killers
	L := r.tm.L
	r.acts.start(r.size)
	var list *lua.LTable
	if r.columns {
		list = r.actColumns.fill(L, &r.acts, acts, &r.actNames, r.childNames)
	} else {
		vals := r.vals[:0]
		for _, a := range acts {
			var child lua.LValue
			if a.Child != engine.NoClass {
				child = r.childNames[a.Child]
			}
			vals = append(vals, r.acts.table(L, a, r.actNames[a.Action], child))
		}
		r.vals = vals
		list = r.actList.fill(L, vals)
	}
	ret, err := r.run("resolve", r.resolve, 3, list, lua.LNumber(nextID))
	if err != nil {
		return err
	}
	if out.Dest, err = r.ints(out.Dest, ret[0], "resolve (dest)", len(acts)); err != nil {
		return err
	}
	// Fields are square ids, cells and teams: whole numbers from 0 (a
	// missing one reads as 0). Anything else fails the round here, before
	// the engine indexes anything with it.
	var bad error
	field := func(t *lua.LTable, what string, i int, k string) int {
		n, _ := t.RawGetString(k).(lua.LNumber)
		if v, ok := toWhole(float64(n)); ok && float64(v) == float64(n) && v >= 0 {
			return v
		}
		if bad == nil {
			bad = fmt.Errorf("%s: resolve: %s %d: %s is %s, not a whole number from 0", r.file, what, i, k, numberString(n))
		}
		return 0
	}
	births, ok := ret[1].(*lua.LTable)
	if !ok && ret[1] != lua.LNil {
		return fmt.Errorf("%s: resolve: births must be a list", r.file)
	}
	// At most one birth per square that acted, and one death per square
	// that lives: longer lists are refused before they are read.
	nb := listLenOrZero(births)
	if nb > len(acts) {
		return fmt.Errorf("%s: resolve: %d births for %d squares", r.file, nb, len(acts))
	}
	for i, n := 1, nb; i <= n; i++ {
		b, ok := listAt(births, i).(*lua.LTable)
		if !ok {
			return fmt.Errorf("%s: resolve: birth %d is not a table", r.file, i)
		}
		cls, ok := r.classIDs[lua.LVAsString(b.RawGetString("class"))]
		if !ok {
			return fmt.Errorf("%s: resolve: birth %d has an unknown class", r.file, i)
		}
		out.Births = append(out.Births, engine.BirthOrder{Parent: engine.SquareID(field(b, "birth", i, "parent")), Cell: field(b, "birth", i, "cell"), Class: cls})
	}
	deaths, ok := ret[2].(*lua.LTable)
	if !ok && ret[2] != lua.LNil {
		return fmt.Errorf("%s: resolve: deaths must be a list", r.file)
	}
	nd := listLenOrZero(deaths)
	if nd > len(acts)+nb {
		return fmt.Errorf("%s: resolve: %d deaths for %d squares", r.file, nd, len(acts)+nb)
	}
	for i, n := 1, nd; i <= n; i++ {
		d, ok := listAt(deaths, i).(*lua.LTable)
		if !ok {
			return fmt.Errorf("%s: resolve: death %d is not a table", r.file, i)
		}
		out.Deaths = append(out.Deaths, engine.DeathOrder{Square: engine.SquareID(field(d, "death", i, "square")), Killer: field(d, "death", i, "killer"),
			Collision: lua.LVAsBool(d.RawGetString("collision")), Own: lua.LVAsBool(d.RawGetString("own"))})
	}
	return bad
}

// Over asks over(game, squares), squares[t+1] being team t's squares.
func (r *Resolver) Over(round, rounds int, squares []int) (bool, error) {
	r.round, r.rounds = round, rounds
	L := r.tm.L
	vals := r.vals[:0]
	for _, n := range squares {
		vals = append(vals, r.acts.num(n))
	}
	r.vals = vals
	list := r.squareList.fill(L, vals)
	ret, err := r.run("over", r.over, 1, list)
	if err != nil {
		return false, err
	}
	return lua.LVAsBool(ret[0]), nil
}
