package luabind

import (
	"fmt"
	"strings"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// TeamOptions configure one team's controller.
type TeamOptions struct {
	Catalog *Catalog
	Index   int    // the team's index in the battle
	Seed    uint64 // the battle seed; the team's math.random stream derives from it
	Size    int    // arena size, for the cached row and column numbers
	Teams   int    // number of teams, for the cached team numbers
	Killers []string
	// Entry names the function of a player's table the engine calls: "run"
	// when empty (SquareBattle), or what a rule mod declares. A rules
	// script has no single entry and sets "-" to skip the check.
	Entry string
	// Player is the class a rule mod's team calls run when a call names
	// none: the team's starting player.
	Player engine.ClassID
	// Extra are globals added to every class environment of the team. The
	// program never sets them: the worker's tests use them to field
	// builtins the sandbox must never have (spin, crash, exhaust memory).
	Extra []Global
}

// Global is a named Go function offered to scripts.
type Global struct {
	Name string
	Fn   lua.LGFunction
}

// Team is the engine.Controller of one team. It owns one Lua state for the
// whole battle. The engine calls it from one goroutine at a time.
type Team struct {
	opts   TeamOptions
	cat    *Catalog
	limits Limits
	index  int
	seed   uint64
	rng    *engine.Rand

	L       *lua.LState
	catch   *catcher   // the handler of its top-level calls: where errors happened (errwhere.go)
	protect *protector // pcall's and xpcall's (pcall.go)
	trace   string     // the traceback of the last call's error (engine.Problem.Trace), or ""
	build   []byte     // the buffer format and gsub build their result in (buildbuf.go)
	budget  budget
	base    *lua.LTable
	classes []classState
	selves  []*lua.LTable // the private `self` of each live square, by id
	pending map[engine.SquareID]*lua.LTable
	view    *lua.LTable
	nums    []lua.LValue // boxed numbers -2 .. max(size, teams), to call without allocating
	killers []lua.LValue
	concat  *lua.LFunction
	length  *lua.LFunction

	facts      *engine.Facts
	phaseStamp int
	statsTable *lua.LTable
	statsStamp int
	// players are the display names stats gives, made from
	// playersFrom (facts.Players) by playerName.
	players     []lua.LValue
	playersFrom *string
	patterns    patternCache
	graves      keyGraves // tables compacted during the call (nextkeys.go)

	inRun  bool
	become engine.ClassID
	cur    *engine.Ready      // the square being asked, during run
	plans  map[int]lua.LValue // the team's plans for this round, by cell

	// memory accounting, see memory.go and census.go
	charged    int64
	headroom   int64
	lastLive   int64
	lastVisits int64 // slots the last census visited
	censusDebt int64 // instructions the next call owes for a census
	memTripped bool
	resets     int
	walk       censusWalk
	// roots are Lua values the Go side holds for the team beyond those
	// listed in census (a rules VM's game table, calls and constants);
	// goBytes is Go-side data grown for the team outside its Lua state.
	roots   []lua.LValue
	goBytes int64

	lastProblemRound int
	log              []string
	printedLines     int64 // lines ever printed, for Printed

	// kept holds a rule mod's constant tables as built in this VM.
	kept map[*plainTable]*lua.LTable
}

// NewTeam builds a team's Lua state. Classes are instantiated in it the
// first time one of the team's squares needs them.
func NewTeam(o TeamOptions) *Team {
	tm := &Team{}
	tm.start(o)
	return tm
}

// start makes tm a new team (see Restart).
func (tm *Team) start(o TeamOptions) {
	*tm = Team{
		opts:    o,
		cat:     o.Catalog,
		limits:  o.Catalog.limits,
		index:   o.Index,
		seed:    o.Seed,
		rng:     engine.NewRand(o.Seed, teamStream(o.Index)),
		pending: map[engine.SquareID]*lua.LTable{},
		plans:   map[int]lua.LValue{},
	}
	tm.budget.team = tm
	tm.boot()
}

func teamStream(team int) uint64 { return engine.TeamStream(team) }

// boot (re)creates the team's Lua state. It runs at the start and after the
// team blew its memory bound; squares keep living but lose their data.
func (tm *Team) boot() {
	if tm.L != nil {
		tm.L.Close()
	}
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       stackSize(tm.limits.CallDepth),
		RegistrySize:        1024 * 4,
		RegistryMaxSize:     1024 * 64,
		IncludeGoStackTrace: false,
	})
	tm.L = L
	tm.cutStack(L) // stackroom.go
	L.Panic = tm.raisePanic
	tm.catch = newCatcher(L, &tm.budget)
	tm.patterns = patternCache{}
	tm.base = tm.openLibraries(L)
	for _, g := range tm.opts.Extra {
		tm.base.RawSetString(g.Name, L.NewFunction(g.Fn))
	}
	if f, ok := tm.base.RawGetString("rawset").(*lua.LFunction); ok {
		tm.base.RawSetString("rawset", tm.rawsetGap(f))
	}
	tm.concat = L.NewFunction(tm.luaConcat)
	tm.length = L.NewFunction(tm.luaLen)
	tm.classes = make([]classState, len(tm.cat.loaded))
	tm.view = L.CreateTable(8, 0)
	n := max(tm.opts.Size, tm.opts.Teams) + 3
	tm.nums = make([]lua.LValue, n)
	for i := range tm.nums {
		tm.nums[i] = lua.LNumber(i - 2)
	}
	tm.killers = make([]lua.LValue, len(tm.opts.Killers))
	for i, k := range tm.opts.Killers {
		tm.killers[i] = ownString(k) // not shared with other teams' (census.go)
	}
	for i := range 8 {
		tm.view.RawSetInt(i+1, tm.nums[1])
	}
	for id, s := range tm.selves {
		if s != nil {
			tm.selves[id] = newSelf(L)
		}
	}
	clear(tm.pending)
	tm.kept = nil // they belonged to the old state
	tm.statsTable = nil
	tm.budget.install(L)
	tm.charged = 0
	tm.headroom = int64(tm.limits.MemoryBytes)
	tm.lastLive = 0
	tm.lastVisits = 0
	tm.censusDebt = 0
	tm.roots = nil // they belonged to the old state
	tm.memTripped = false
}

// Close releases the Lua state.
func (tm *Team) Close() {
	if tm.L != nil {
		tm.L.Close()
		tm.L = nil // closing twice is harmless
	}
}

// Log returns what the team's scripts printed, most recent last.
func (tm *Team) Log() []string { return append([]string(nil), tm.log...) }

func (tm *Team) printed(line string) {
	if len(tm.log) >= maxLogLines {
		copy(tm.log, tm.log[1:])
		tm.log = tm.log[:len(tm.log)-1]
	}
	tm.log = append(tm.log, engine.SafeLine(line)) // printed text reaches terminals
	tm.printedLines++
}

// Printed returns the lines printed since the team had printed since lines
// in all (at most the last maxLogLines of them) and the new total, so a
// caller can forward what is new after each call.
func (tm *Team) Printed(since int64) ([]string, int64) {
	n := min(tm.printedLines-since, int64(len(tm.log)))
	if n <= 0 {
		return nil, tm.printedLines
	}
	return tm.log[len(tm.log)-int(n):], tm.printedLines
}

const maxLogLines = 200

func (tm *Team) num(v int) lua.LValue {
	if v+2 >= 0 && v+2 < len(tm.nums) {
		return tm.nums[v+2]
	}
	return lua.LNumber(v)
}

// errorText turns a Lua error into one line.
func (tm *Team) errorText(err error) string {
	if tm.memTripped {
		return tm.catch.at(fmt.Sprintf("%s: team heap over %d MiB (limits.memory_mib)", errMemory, tm.limits.MemoryBytes>>20))
	}
	if tm.budget.spent {
		return tm.catch.at(fmt.Sprintf("%s: more than %d instructions (limits.instructions)", errBudget, tm.limits.Instructions))
	}
	msg := err.Error()
	if ae, ok := err.(*lua.ApiError); ok {
		switch o := ae.Object.(type) {
		case lua.LString:
			msg = string(o)
		case lua.LNumber:
			msg = numberString(o)
		default:
			msg = "error object is a " + o.Type().String() + " value"
		}
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	// A script may raise any bytes, escape sequences included; people,
	// terminals and JSON see them escaped (engine.SafeText).
	return engine.SafeText(msg)
}

// call runs the function and arguments already pushed, under a fresh budget.
func (tm *Team) call(nargs, nret int) (engine.Fault, string) {
	f, msg, _ := tm.callWithin(nargs, nret, tm.limits.Instructions)
	return f, msg
}

// callWithin is call with a given budget; it also returns the instructions
// the call ran.
func (tm *Team) callWithin(nargs, nret, limit int) (engine.Fault, string, int) {
	tm.budget.reset(limit)
	tm.memTripped = false
	tm.trace = ""
	tm.payCensus()
	err := tm.catch.pcall(tm.L, nargs, nret)
	tm.narrowStack(tm.L)
	used := int64(limit) - tm.budget.remaining()
	if err != nil {
		tm.trace = strings.Join(tm.catch.trace, "\n")
	}
	tm.charged += used * bytesPerInstr
	switch {
	case err == nil && !tm.memTripped:
		return engine.NoFault, "", int(used)
	case tm.memTripped:
		return engine.FaultError, tm.errorText(err), int(used)
	case tm.budget.spent:
		return engine.FaultTimeout, tm.errorText(err), int(used)
	default:
		return engine.FaultError, tm.errorText(err), int(used)
	}
}

func (tm *Team) self(id engine.SquareID) *lua.LTable {
	tm.growSelves(id)
	s := tm.selves[id]
	if s == nil {
		s = newSelf(tm.L)
		tm.selves[id] = s
	}
	return s
}

// growSelves makes room for square id's self.
func (tm *Team) growSelves(id engine.SquareID) {
	for int(id) >= len(tm.selves) {
		tm.selves = append(tm.selves, nil)
	}
}

// newSelf makes a square's private table. gopher-lua gives a table's
// string keys a map with room for 32 entries on the first string key
// (over 2 KiB), where a square keeps a field or a few: made here with room
// for one, its map stays one small group of eight until the script stores
// more, as Go's maps grow. Two thousand squares then hold a few hundred
// KiB instead of several MiB, which keeps the run calls' `self.x` reads
// and writes, and the census that walks every self, in the cache.
func newSelf(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	if tableLayoutOK {
		(*lTable)(unsafe.Pointer(t)).strdict = make(map[string]lua.LValue, 1)
	}
	return t
}

// memoryReset rebuilds the team's Lua state after it went over its bound.
// The problem names the run function of cs, the class about to be called
// or just called when the census found the team over.
func (tm *Team) memoryReset(rep *engine.Report, round int, cs *classState) {
	tm.resets++
	rep.Errors++
	msg := fmt.Sprintf("%s (%d MiB, limits.memory_mib): the team's Lua memory was reset", errMemory, tm.limits.MemoryBytes>>20)
	if cs != nil {
		msg = tm.where(cs, msg)
	}
	rep.Problems = append(rep.Problems, engine.Problem{Class: engine.NoClass, Square: -1, Kind: engine.FaultError, Message: msg})
	tm.boot()
}

// located makes sure a problem names a file and line: messages from the
// budget or from non-string error values carry none, so they get the
// position of the class's run function.
func (tm *Team) located(class engine.ClassID, cs *classState, msg string) string {
	if strings.HasPrefix(msg, tm.cat.loaded[class].File+":") {
		return msg
	}
	return tm.where(cs, msg)
}
