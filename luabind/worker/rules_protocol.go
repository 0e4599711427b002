package worker

import (
	"math"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// Rules (rules.lua of a rule mod) run in a worker of their own, one per
// battle, with two more kinds of request beside the teams' (numbered far
// from them so the two lists can grow apart):
//
//	rules start  hash[32] resolver rules seed teams budget options(name type value)… classes… wrap size
//	rules call   op, then the op's fields (below)
//
// A rule mod's rules (engine.Rules) edit a board. The worker keeps a
// replica of it (engine.NewReplicaBoard); each call carries the round, the
// side and the rules' random stream, and its answer carries back all the
// call changed, which the parent applies to the battle's board:
//
//	request  op round size rand[4] first [rounds wrap columns…] (resolve: answers(fault used [value])…)
//	answer   status [text] rand[4] cells(cell team mark)… values(team column value)… decided winner
//	         forgets(team units…)… (size: side; next: calls(team unit class budget view)…)
//
// Rules of the SquareBattle protocol (engine.Resolver) keep no board:
//
//	place    size teams placement[4]          → status [text] placement[4] cells…
//	resolve  round next-id killers[4] acts(square team cell action target child)…
//	                                          → status [text] killers[4] dest… births(parent cell class)… deaths(square killer collision own)…
//	over     round rounds squares…            → status [text] over
//
// status 0 is a call that succeeded; 1 is the rules' own failure (a Lua
// error, the budget, memory), with the one line the rules would have
// stopped the battle with in this process. Views and answers are plain
// values (luabind.PlainEncoder): a table shared by several views is sent
// once, a constant table once per battle.
const (
	kindRulesStart byte = 0x40 + iota
	kindRulesCall
	kindModCall // a rule mod's calls to one team (modseat.go)
)

// Operations of a rules call.
const (
	opSize byte = iota + 1
	opSetup
	opNext
	opResolve
	opPlace
	opSettle // a resolver's resolve
	opOver
)

// Statuses of a rules call's answer.
const (
	rulesOK byte = iota
	rulesFailed
)

// Bounds on rules traffic, parent side.
const (
	maxRulesReply = 256 << 20 // an answer: views of up to 65536 calls
	maxUnit       = 1 << 16   // as luabind: unit ids of a rule mod
	maxCells      = 1 << 28   // cells of the largest board
)

func putRand(e *enc, s [4]uint64) {
	for _, x := range s {
		e.u(x)
	}
}

func getRand(d *dec) (s [4]uint64) {
	for i := range s {
		s[i] = d.u()
	}
	return s
}

func putInts(e *enc, v []int) {
	e.u(uint64(len(v)))
	for _, x := range v {
		e.int(x)
	}
}

// getInts reads a list of at most limit whole numbers from lo to hi.
func getInts(d *dec, limit int, lo, hi int64) []int {
	n := d.count(1)
	if n > limit {
		d.fail()
		return nil
	}
	out := make([]int, n)
	for i := range out {
		out[i] = d.int(lo, hi)
	}
	return out
}

// putOptions writes the rules' options sorted by name, so that equal
// options give equal requests.
func putOptions(e *enc, opts map[string]any, names []string) {
	e.u(uint64(len(names)))
	for _, name := range names {
		e.str(name)
		switch v := opts[name].(type) {
		case float64:
			e.byte(0)
			e.u(uint64(floatBits(v)))
		case bool:
			e.byte(1)
			e.bool(v)
		case string:
			e.byte(2)
			e.str(v)
		default:
			e.byte(2)
			e.str("")
		}
	}
}

func getOptions(d *dec) map[string]any {
	n := d.count(3)
	out := make(map[string]any, n)
	for range n {
		name := d.str()
		switch d.byte() {
		case 0:
			out[name] = floatFrom(d.u())
		case 1:
			out[name] = d.bool()
		case 2:
			out[name] = d.str()
		default:
			d.fail()
		}
	}
	return out
}

func putAct(e *enc, a *engine.Act) {
	e.int(int(a.Square))
	e.int(a.Team)
	e.int(a.Cell)
	e.byte(byte(a.Action))
	e.int(a.Target)
	e.int(int(a.Child))
}

func getAct(d *dec, classes int) engine.Act {
	a := engine.Act{Square: engine.SquareID(d.int(0, 1<<31-1)), Team: d.int(0, maxTeams), Cell: d.int(0, maxCells)}
	a.Action = engine.Action(d.byte())
	a.Target = d.int(-1, maxCells)
	a.Child = engine.ClassID(d.int(-1, int64(classes)-1))
	if a.Action > engine.Replicate {
		d.fail()
	}
	return a
}

func floatBits(f float64) uint64 { return math.Float64bits(f) }
func floatFrom(u uint64) float64 { return math.Float64frombits(u) }

// putAnswers writes players' answers: fault, instructions used and, for an
// answer without a fault, its value, as one message of pe.
func putAnswers(e *enc, answers []engine.Answer, pe *luabind.PlainEncoder) {
	pe.Message()
	for _, a := range answers {
		e.byte(byte(a.Fault))
		e.int(a.Used)
		if a.Fault == engine.NoFault {
			e.b = pe.Append(e.b, a.Value)
		}
	}
}

// getAnswers reads n answers putAnswers wrote.
func getAnswers(d *dec, n int, pd *luabind.PlainDecoder) []engine.Answer {
	pd.Message()
	answers := make([]engine.Answer, n)
	for i := range answers {
		a := &answers[i]
		a.Fault = engine.Fault(d.byte())
		a.Used = d.int(0, 1<<40)
		if a.Fault > engine.FaultError {
			d.fail()
		}
		if a.Fault == engine.NoFault && d.err == nil {
			var err error
			if a.Value, d.b, err = pd.Read(d.b); err != nil {
				d.fail()
			}
		}
	}
	return answers
}
