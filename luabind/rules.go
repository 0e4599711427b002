package luabind

import (
	"errors"
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Rules runs a rule mod's rules.lua (engine.Rules). The rules are trusted
// to be fair but not to be correct: they run in the same sandbox as the
// players, under their own instruction budget per call and memory bound,
// so a rules script that loops or fails stops the battle with its
// file:line instead of hanging it.
type Rules struct {
	*rulesVM
	board   *engine.Board
	cat     *Catalog
	rules   engine.ClassID
	size    *lua.LFunction
	setup   *lua.LFunction
	turns   *lua.LFunction
	resolve *lua.LFunction
	calls   *lua.LTable // what turns returned last, handed back to resolve
	// options are the configured values of the rules' options.
	options map[string]any
	// batches counts the lists of calls turns gave in round batchRound,
	// and roundStart is what the rules had run when it began: rules whose
	// turns never returns nil are stopped, not left spinning.
	batchRound, batches int
	roundStart          int64
	// constants are the tables the rules declared unchanging, copied once;
	// constEntries counts their entries, bounded by maxPlainEntries.
	constants    map[*lua.LTable]*plainTable
	constList    []*lua.LTable // the keys of constants, in the order declared
	constEntries int
	// forgotten[t] has a bit per unit already passed to board.Forget for
	// team t and not yet handed to the team: a unit is forgotten once, so
	// the engine's lists stay within maxUnit per team however often the
	// rules call game.forget.
	forgotten [][]uint64
}

// RulesInfo is what a rules script declares about its game.
type RulesInfo struct {
	Name    string   // the game's display name
	Columns []string // score columns, the first deciding the winner
	Entry   string   // the function of a player's table the rules call
	Sizes   bool     // the rules can choose the board's side (a size function)
	// Protocol is "squarebattle" for rules that keep SquareBattle's
	// players and replace only its rules (see Resolver); "" otherwise.
	Protocol string
	// Options are the settings the rules declare (options = {name =
	// default}), with their defaults: numbers, booleans or strings.
	Options map[string]any
}

// A round of a rule mod may have at most maxBatches lists of calls, and
// turns may run at most roundBudgets times its per-call budget over them:
// a turn queue asks one unit at a time, but no board has more units.
const (
	maxBatches   = 1 << 14
	roundBudgets = 16
)

// NewRules loads the rules class of cat into its own Lua state. budget is
// the instruction budget of one call to the rules (setup, turns, resolve).
func NewRules(cat *Catalog, rules engine.ClassID, seed uint64, teams, budget int, extra ...Global) (*Rules, error) {
	vm, err := loadRulesVM(cat, rules, seed, teams, budget, extra...)
	if err != nil {
		return nil, err
	}
	r := &Rules{rulesVM: vm, cat: cat, rules: rules}
	r.size, r.setup = vm.function("size"), vm.function("setup")
	r.turns, r.resolve = vm.function("turns"), vm.function("resolve")
	if r.turns == nil || r.resolve == nil {
		vm.Close()
		return nil, fmt.Errorf("%s: the rules table needs turns and resolve functions", vm.file)
	}
	r.game = r.gameTable()
	vm.tm.roots = []lua.LValue{r.game}
	return r, nil
}

// Info reads what the rules declare: name, columns and entry.
func (r *Rules) Info() (RulesInfo, error) {
	t := r.cs.table
	file := r.file
	_, sizes := t.RawGetString("size").(*lua.LFunction)
	info := RulesInfo{Entry: "run", Sizes: sizes}
	if s, ok := t.RawGetString("name").(lua.LString); ok {
		info.Name = engine.SafeText(string(s)) // shown as a title
	}
	switch p := t.RawGetString("protocol").(type) {
	case lua.LString:
		if p != SquareBattleProtocol {
			return info, fmt.Errorf("%s: protocol must be %q or left out", file, SquareBattleProtocol)
		}
		info.Protocol = string(p)
		return info, nil
	case *lua.LNilType:
	default:
		return info, fmt.Errorf("%s: protocol must be a string", file)
	}
	switch e := t.RawGetString("entry").(type) {
	case lua.LString:
		if !engine.IsSafeText(string(e)) {
			return info, fmt.Errorf("%s: entry must be a name of printable characters", file)
		}
		info.Entry = string(e)
	case *lua.LNilType:
	default:
		return info, fmt.Errorf("%s: entry must be a string", file)
	}
	switch cols := t.RawGetString("columns").(type) {
	case *lua.LTable:
		n := listLen(cols)
		if n > engine.MaxColumns {
			return info, fmt.Errorf("%s: columns: %d names, at most %d", file, n, engine.MaxColumns)
		}
		for i := 1; i <= n; i++ {
			s, ok := listAt(cols, i).(lua.LString)
			// A column name is a table heading and a key of
			// game.score: printable, or it is refused rather than escaped.
			if !ok || s == "" || !engine.IsSafeText(string(s)) {
				return info, fmt.Errorf("%s: columns[%d] must be a name of printable characters", file, i)
			}
			info.Columns = append(info.Columns, string(s))
		}
	case *lua.LNilType:
	default:
		return info, fmt.Errorf("%s: columns must be a list of names", file)
	}
	if len(info.Columns) == 0 {
		info.Columns = []string{"score"}
	}
	switch opts := t.RawGetString("options").(type) {
	case *lua.LTable:
		info.Options = map[string]any{}
		for k, v := opts.Next(lua.LNil); k != lua.LNil; k, v = opts.Next(k) {
			name, ok := k.(lua.LString)
			if !ok || !engine.IsSafeText(string(name)) {
				return info, fmt.Errorf("%s: options: names must be strings of printable characters", file)
			}
			switch d := v.(type) {
			case lua.LNumber:
				info.Options[string(name)] = float64(d)
			case lua.LBool:
				info.Options[string(name)] = bool(d)
			case lua.LString:
				info.Options[string(name)] = string(d)
			default:
				return info, fmt.Errorf("%s: options.%s: a default must be a number, a boolean or a string", file, name)
			}
		}
	case *lua.LNilType:
	default:
		return info, fmt.Errorf("%s: options must be a table of names and defaults", file)
	}
	return info, nil
}

func (r *Rules) refresh(b *engine.Board) {
	r.board = b
}

// Size runs the rules' size(game), when there is one: the side of the
// board the rules choose (engine.Sizer), 0 when they have no size function.
// game.size() is 0 there and game.random() draws from the rules' stream.
func (r *Rules) Size(b *engine.Board) (int, error) {
	r.refresh(b)
	if r.size == nil {
		return 0, nil
	}
	out, err := r.run("size", r.size, 1)
	if err != nil {
		return 0, err
	}
	ret := out[0]
	n, ok := ret.(lua.LNumber)
	if !ok {
		return 0, fmt.Errorf("%s: size returned a %s, not a board side", where(r.size), ret.Type())
	}
	if float64(n) != float64(int(n)) || n < 1 {
		return 0, fmt.Errorf("%s: size returned %v, not a board side", where(r.size), float64(n))
	}
	return int(n), nil
}

var _ engine.Sizer = (*Rules)(nil)

// Setup runs the rules' setup(game), when there is one.
func (r *Rules) Setup(b *engine.Board) error {
	r.refresh(b)
	if r.setup == nil {
		return nil
	}
	_, err := r.run("setup", r.setup, 0)
	return err
}

// Next runs turns(game): a list of calls, {team =, unit =, class =, view =}.
func (r *Rules) Next(b *engine.Board) ([]engine.Call, error) {
	r.refresh(b)
	if r.batchRound != b.Round() {
		r.batchRound, r.batches, r.roundStart = b.Round(), 0, r.used
	}
	if spent := r.used - r.roundStart; spent > roundBudgets*int64(r.budget) {
		return nil, fmt.Errorf("%s: turns ran %d instructions in one round, more than %d × limits.rules_instructions", where(r.turns), spent, roundBudgets)
	}
	out, err := r.run("turns", r.turns, 1)
	if err != nil {
		return nil, err
	}
	ret := out[0]
	r.calls = nil
	list, ok := ret.(*lua.LTable)
	if !ok {
		if ret == lua.LNil {
			return nil, nil
		}
		return nil, fmt.Errorf("%s: turns returned a %s, not a list of calls", where(r.turns), ret.Type())
	}
	n := listLen(list)
	if n > maxUnit {
		return nil, fmt.Errorf("%s: turns asked for %d calls at once; the most is %d", where(r.turns), n, maxUnit)
	}
	if r.batches++; r.batches > maxBatches {
		return nil, fmt.Errorf("%s: turns gave calls %d times in one round without returning nil", where(r.turns), maxBatches)
	}
	r.calls = list
	r.tm.roots = append(r.tm.roots[:0], r.game, list)
	for _, lt := range r.constList {
		r.tm.roots = append(r.tm.roots, lt)
	}
	var calls []engine.Call
	views := newPlainCopier()  // a table in several views is copied once
	views.consts = r.constants // and a constant table once for the battle
	for i := 1; i <= n; i++ {
		c, err := r.call(listAt(list, i), b.Teams(), views)
		if err != nil {
			return nil, fmt.Errorf("%s: call %d: %v", where(r.turns), i, err)
		}
		calls = append(calls, c)
	}
	// The teams asked now are handed their forget lists: from here on
	// their units may be forgotten again.
	for _, c := range calls {
		if c.Team < len(r.forgotten) && r.forgotten[c.Team] != nil {
			clear(r.forgotten[c.Team])
		}
	}
	return calls, nil
}

func (r *Rules) call(v lua.LValue, teams int, views *plainCopier) (engine.Call, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return engine.Call{}, fmt.Errorf("is a %s, not a table", v.Type())
	}
	c := engine.Call{Class: engine.NoClass}
	team, ok := t.RawGetString("team").(lua.LNumber)
	if !ok || int(team) < 0 || int(team) >= teams || float64(team) != float64(int(team)) {
		return c, fmt.Errorf("team must be a team number from 0 to %d", teams-1)
	}
	c.Team = int(team)
	switch u := t.RawGetString("unit").(type) {
	case lua.LNumber:
		if !(u >= 0 && u < maxUnit) || float64(u) != float64(int(u)) {
			return c, fmt.Errorf("unit must be a whole number from 0 to %d", maxUnit-1)
		}
		c.Unit = int(u)
	case *lua.LNilType:
	default:
		return c, errors.New("unit must be a number")
	}
	switch cl := t.RawGetString("class").(type) {
	case lua.LString:
		id, ok := r.cat.classID(string(cl))
		if !ok || id == r.rules {
			return c, fmt.Errorf("no player class %q", string(cl))
		}
		c.Class = id
	case *lua.LNilType:
	default:
		return c, errors.New("class must be a class id")
	}
	switch b := t.RawGetString("budget").(type) {
	case lua.LNumber:
		if !(b >= 1 && b <= 1e9) { // NaN too
			return c, errors.New("budget must be from 1 to 1e9 instructions")
		}
		c.Budget = int(b)
	case *lua.LNilType:
	default:
		return c, errors.New("budget must be a number")
	}
	view, err := views.plain(t.RawGetString("view"))
	if err != nil {
		return c, fmt.Errorf("view: %v", err)
	}
	c.View = view
	return c, nil
}

// Resolve runs resolve(game, calls, answers, used); answers[i] is nil for
// a call that timed out or failed, used[i] the instructions it ran.
func (r *Rules) Resolve(b *engine.Board, calls []engine.Call, answers []engine.Answer) error {
	r.refresh(b)
	L := r.tm.L
	list := L.CreateTable(len(answers), 0)
	used := L.CreateTable(len(answers), 0)
	// A table an answer holds in several places is built once and shared,
	// as it was in the player's state: an answer that names one big table
	// a thousand times costs the rules one table, not a thousand copies
	// that nobody would be charged for building.
	var built int64
	shared := map[*plainTable]*lua.LTable{}
	for i, a := range answers {
		if a.Fault == engine.NoFault {
			list.RawSet(lua.LNumber(i+1), fromPlainShared(L, a.Value, shared, &built))
		}
		used.RawSet(lua.LNumber(i+1), lua.LNumber(a.Used))
	}
	// The answers now live in the rules' state: its memory.
	r.tm.charged += (built + 2*int64(len(answers))) * 40
	callList := r.calls
	if callList == nil {
		callList = L.NewTable()
	}
	_, err := r.run("resolve", r.resolve, 0, callList, list, used)
	return err
}
