package human

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/squarebattle/squarebattle/engine"
)

// Class is a class a human's team may use: as the autopilot of its squares
// without an order, and as the class of a replicated square's child.
type Class struct {
	ID   engine.ClassID
	Name string // as shown: the class id
}

// ClassesOf are the classes of a battle, by their ids (index i is
// engine.ClassID(i)), as a human may pick them.
func ClassesOf(ids []string) []Class {
	out := make([]Class, len(ids))
	for i, id := range ids {
		out[i] = Class{ID: engine.ClassID(i), Name: id}
	}
	return out
}

// Order is what the human told one square to do. It stands, round after
// round, until the human changes or clears it: terminals report no key
// release, so "hold the key" cannot be how one keeps moving.
type Order struct {
	Action engine.Action
	Dir    engine.Direction
	Child  engine.ClassID // Replicate's child
}

// SquadOptions configure a Squad.
type SquadOptions struct {
	// Autopilot runs the autopilot class for the squares without an
	// order: a Lua team (luabind), called like any controller but with
	// each square's class replaced by the autopilot class. Nil leaves the
	// human only the wait autopilot.
	Autopilot engine.Controller
	// Classes are the classes the human may pick (keys 1 to 9 pick the
	// first nine): the battle's usable classes.
	Classes []Class
	// Pilot is the autopilot at the start; engine.NoClass waits.
	Pilot engine.ClassID
	// Idle is how long without a key before every square runs the
	// autopilot, orders set aside until the next key; 0 never.
	Idle time.Duration
	// Now is the clock (time.Now when nil); only the idle fallback reads it.
	Now func() time.Time
}

// verb is the action the next direction key orders.
type verb uint8

const (
	verbMove verb = iota
	verbAttack
	verbReplicate
)

// prompt is what the squad waits for after a key that takes another.
type prompt uint8

const (
	promptNone  prompt = iota
	promptChild        // replicate's child class: 1-9, Enter the last one
	promptPilot        // the autopilot: 0 wait, 1-9 a class
)

type cell struct{ row, col int }

// Squad is the controller of a SquareBattle team played at the keys: Tab
// selects one of its squares, keys give the selected square an order, and
// squares without one run the autopilot the human picked (see the package
// comment for who calls what).
type Squad struct {
	o SquadOptions

	mu       sync.Mutex
	where    map[engine.SquareID]cell // the team's squares, where they stand
	ids      []engine.SquareID        // the keys of where, ascending: Tab's order
	orders   map[engine.SquareID]Order
	sel      engine.SquareID // the selected square, -1 none
	verb     verb
	prompt   prompt
	childDir engine.Direction // replicate's direction, while promptChild
	child    engine.ClassID   // the last child class picked
	pilot    engine.ClassID
	lastKey  time.Time
	size     int
	wrap     bool
	note     string // the last key's result, for the status line
}

// NewSquad makes the controller of a human's SquareBattle team.
func NewSquad(o SquadOptions) *Squad {
	if o.Now == nil {
		o.Now = time.Now
	}
	if len(o.Classes) > 9 {
		o.Classes = o.Classes[:9]
	}
	child := o.Pilot
	if child == engine.NoClass && len(o.Classes) > 0 {
		child = o.Classes[0].ID
	}
	if o.Autopilot == nil {
		o.Pilot = engine.NoClass
	}
	return &Squad{
		o:       o,
		where:   map[engine.SquareID]cell{},
		orders:  map[engine.SquareID]Order{},
		sel:     -1,
		child:   child,
		pilot:   o.Pilot,
		lastKey: o.Now(),
	}
}

// SquadState is what the UI shows of a Squad: a copy, the caller's to keep.
type SquadState struct {
	Selected  engine.SquareID // -1 none
	Row, Col  int             // where the selected square stands
	Order     *Order          // the selected square's order; nil: autopilot
	Squares   int             // squares the team has
	Orders    int             // squares with an order
	Verb      engine.Action   // what a direction key orders now
	Prompt    string          // what a key is awaited for; "" none
	Pilot     string          // the autopilot: "wait" or a class
	Idle      bool            // no key for the idle time: the autopilot plays
	Note      string          // what the last key did
	Classes   []Class
	ChildName string // the child class Enter picks
}

// State returns what the UI shows.
func (q *Squad) State() SquadState {
	q.mu.Lock()
	defer q.mu.Unlock()
	s := SquadState{Selected: q.sel, Squares: len(q.ids), Orders: len(q.orders), Pilot: q.className(q.pilot),
		Idle: q.idle(), Note: q.note, Classes: q.o.Classes, ChildName: q.className(q.child)}
	s.Verb = [...]engine.Action{engine.Move, engine.Attack, engine.Replicate}[q.verb]
	if c, ok := q.where[q.sel]; ok {
		s.Row, s.Col = c.row, c.col
		if o, ok := q.orders[q.sel]; ok {
			s.Order = &o
		}
	}
	switch q.prompt {
	case promptChild:
		s.Prompt = fmt.Sprintf("replicate %s: child class? 1-%d, Enter %s", q.childDir, len(q.o.Classes), s.ChildName)
	case promptPilot:
		s.Prompt = fmt.Sprintf("autopilot? 0 wait, 1-%d a class", len(q.o.Classes))
	}
	return s
}

func (q *Squad) className(id engine.ClassID) string {
	for _, c := range q.o.Classes {
		if c.ID == id {
			return c.Name
		}
	}
	return "wait"
}

func (q *Squad) idle() bool {
	return q.o.Idle > 0 && q.o.Now().Sub(q.lastKey) >= q.o.Idle
}

// Key takes one key press; it reports whether the key was the squad's
// (a key it does not use goes on to the battle screen's own keys).
//
//	Tab, Shift-Tab        select the next, the previous square
//	m, a, r               the next direction moves, attacks, replicates
//	hjkl yubn, arrows     the direction: the selected square's order
//	1-9, Enter            (after r and a direction) the child's class
//	x                     clear the selected square's order: autopilot
//	X                     clear every order
//	p then 0-9            the autopilot: 0 wait, 1-9 a class
//	Esc                   cancel a prompt
func (q *Squad) Key(k Key) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lastKey = q.o.Now()
	if q.prompt != promptNone {
		return q.answer(k)
	}
	if d, ok := squareDir(k); ok {
		q.direct(d)
		return true
	}
	switch k.Name {
	case KeyTab:
		q.cycle(1)
		return true
	case KeyBacktab:
		q.cycle(-1)
		return true
	case KeyRune:
	default:
		return false
	}
	switch k.Rune {
	case 'm':
		q.verb, q.note = verbMove, "move: pick a direction"
	case 'a':
		q.verb, q.note = verbAttack, "attack: pick a direction"
	case 'r':
		q.verb, q.note = verbReplicate, "replicate: pick a direction"
	case 'x':
		delete(q.orders, q.sel)
		q.note = "order cleared: the autopilot plays this square"
	case 'X':
		clear(q.orders)
		q.note = "every order cleared"
	case 'p':
		if len(q.o.Classes) == 0 || q.o.Autopilot == nil {
			q.note = "no classes to fly the autopilot: it waits"
			return true
		}
		q.prompt = promptPilot
	default:
		return false
	}
	return true
}

// direct gives the selected square the verb's order in direction d.
func (q *Squad) direct(d engine.Direction) {
	if _, ok := q.where[q.sel]; !ok {
		q.note = "no square selected: Tab selects one"
		return
	}
	switch q.verb {
	case verbMove:
		q.orders[q.sel] = Order{Action: engine.Move, Dir: d, Child: engine.NoClass}
		q.note = "move " + d.String()
	case verbAttack:
		q.orders[q.sel] = Order{Action: engine.Attack, Dir: d, Child: engine.NoClass}
		q.note = "attack " + d.String()
	case verbReplicate:
		if len(q.o.Classes) == 0 {
			q.note = "no class to replicate into"
			return
		}
		q.prompt, q.childDir = promptChild, d
	}
}

// answer takes the key a prompt waits for.
func (q *Squad) answer(k Key) bool {
	p := q.prompt
	q.prompt = promptNone
	if k.Name == KeyEsc {
		q.note = "cancelled"
		return true
	}
	pick := -1
	if k.Name == KeyRune && k.Rune >= '0' && k.Rune <= '9' {
		pick = int(k.Rune - '0')
	}
	switch p {
	case promptChild:
		switch {
		case k.Name == KeyEnter:
		case pick >= 1 && pick <= len(q.o.Classes):
			q.child = q.o.Classes[pick-1].ID
		default:
			q.prompt = promptChild // not an answer: ask again
			return true
		}
		if _, ok := q.where[q.sel]; ok {
			q.orders[q.sel] = Order{Action: engine.Replicate, Dir: q.childDir, Child: q.child}
			q.note = fmt.Sprintf("replicate %s into %s", q.childDir, q.className(q.child))
		}
		q.verb = verbMove
	case promptPilot:
		switch {
		case pick == 0:
			q.pilot = engine.NoClass
		case pick >= 1 && pick <= len(q.o.Classes):
			q.pilot = q.o.Classes[pick-1].ID
		default:
			q.prompt = promptPilot
			return true
		}
		q.note = "autopilot: " + q.className(q.pilot)
	}
	return true
}

// cycle moves the selection n squares on in id order, wrapping.
func (q *Squad) cycle(n int) {
	if len(q.ids) == 0 {
		q.sel, q.note = -1, "no squares left"
		return
	}
	i, found := slices.BinarySearch(q.ids, q.sel)
	switch {
	case !found && n > 0:
		i-- // the next one is at i
	case !found:
		// the previous one is at i-1
	}
	i = ((i+n)%len(q.ids) + len(q.ids)) % len(q.ids)
	q.sel = q.ids[i]
	q.note = ""
}

// Turn decides for the team's ready squares: a square with an order
// follows it, the others (every square while the human is idle) run the
// autopilot. It never waits for a key.
func (q *Squad) Turn(t *engine.Turn) {
	q.mu.Lock()
	q.size, q.wrap = t.Facts.Size, t.Facts.Wrap
	idle := q.idle()
	pilot := q.pilot
	var auto []int
	for i, r := range t.Squares {
		q.place(r.ID, cell{r.Row, r.Col})
		o, ok := q.orders[r.ID]
		if !ok || idle {
			auto = append(auto, i)
			continue
		}
		t.Intents[i] = engine.Intent{Action: o.Action, Dir: o.Dir, Child: o.Child, Become: engine.NoClass}
	}
	if q.sel < 0 && len(q.ids) > 0 {
		q.sel = q.ids[0]
	}
	if pilot == engine.NoClass || len(auto) == 0 {
		q.moveAll(t)
		q.mu.Unlock()
		return
	}
	q.mu.Unlock()
	// The autopilot plays its squares as if they were of its class; what
	// it may ask beyond an action (becoming another class) is dropped:
	// the human's squares keep the classes the human gave them.
	sub := engine.Turn{Team: t.Team, Facts: t.Facts, Squares: make([]engine.Ready, len(auto)), Intents: make([]engine.Intent, len(auto))}
	for j, i := range auto {
		sub.Squares[j] = t.Squares[i]
		sub.Squares[j].Class = pilot
		sub.Intents[j] = engine.WaitIntent
	}
	q.o.Autopilot.Turn(&sub)
	q.mu.Lock()
	for j, i := range auto {
		in := sub.Intents[j]
		in.Become = engine.NoClass
		t.Intents[i] = in
	}
	q.moveAll(t)
	q.mu.Unlock()
	t.Report.Timeouts += sub.Report.Timeouts
	t.Report.Errors += sub.Report.Errors
	t.Report.Problems = append(t.Report.Problems, sub.Report.Problems...)
	// The wall around the autopilot's Lua (its worker crashed, or ran out
	// of time) is the autopilot's problem, not the team's: passed on, a
	// backstop event would silence the human's own orders for the round
	// and could retire the team. It counts as an error of the autopilot.
	absorb(&t.Report, sub.Report.Backstops, t.Team, t.Squares[auto[0]].ID)
}

// absorb counts backstop events of the autopilot as its errors, with a
// problem each naming it, on square.
func absorb(r *engine.Report, events []engine.Backstop, team int, square engine.SquareID) {
	for _, b := range events {
		r.Errors++
		r.Problems = append(r.Problems, engine.Problem{Team: team, Class: b.Class, Square: square, Kind: engine.FaultError, Message: "autopilot: " + b.Message})
	}
}

// moveAll puts the turn's movers where they are going: the engine calls
// Settle only in rounds where some square is born or dies, so a square is
// followed by its moves (and corrected by the next Turn, which says where
// every ready square stands); a mover that dies leaves in Settle.
func (q *Squad) moveAll(t *engine.Turn) {
	for i, in := range t.Intents {
		if in.Action == engine.Move && in.Fault == engine.NoFault && in.Dir.Valid() {
			id := t.Squares[i].ID
			q.where[id] = q.step(q.where[id], in.Dir)
		}
	}
}

// place records where a square stands, adding it when new.
func (q *Squad) place(id engine.SquareID, c cell) {
	if _, ok := q.where[id]; !ok {
		i, _ := slices.BinarySearch(q.ids, id)
		q.ids = slices.Insert(q.ids, i, id)
	}
	q.where[id] = c
}

// Settle follows the round's end: squares born join the team, squares
// dead leave it with their orders. The
// autopilot hears of it too (its children's data, its hooks), but what
// its hooks report is not the team's: a re-run of the battle replays the
// human's decisions without running the autopilot again.
func (q *Squad) Settle(s *engine.Settlement) {
	q.mu.Lock()
	for _, b := range s.Births {
		q.place(b.Child, cell{b.Row, b.Col})
	}
	for _, d := range s.Deaths {
		if _, ok := q.where[d.Square]; !ok {
			continue
		}
		delete(q.where, d.Square)
		delete(q.orders, d.Square)
		i, _ := slices.BinarySearch(q.ids, d.Square)
		q.ids = slices.Delete(q.ids, i, i+1)
		if q.sel == d.Square {
			switch {
			case len(q.ids) == 0:
				q.sel = -1
			case i < len(q.ids):
				q.sel = q.ids[i]
			default:
				q.sel = q.ids[0]
			}
		}
	}
	q.mu.Unlock()
	if q.o.Autopilot != nil {
		cp := *s
		cp.Report = engine.Report{}
		q.o.Autopilot.Settle(&cp)
	}
}

// step is the cell one step from c in direction d, or c beyond a wall.
func (q *Squad) step(c cell, d engine.Direction) cell {
	dr, dc := d.Offset()
	r, k := c.row+dr, c.col+dc
	if q.wrap {
		return cell{(r + q.size) % q.size, (k + q.size) % q.size}
	}
	if r < 0 || r >= q.size || k < 0 || k >= q.size {
		return c
	}
	return cell{r, k}
}
