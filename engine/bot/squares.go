package bot

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
)

// Controller plays a SquareBattle team (or a rule mod's written with
// protocol = "squarebattle") for a bot: each round it writes the team's
// round message, with the births and deaths since its last one, and turns
// the bot's one answer line into the squares' intents. All its squares are
// of one class, the bot's.
//
// It is an engine.Dispatcher, so every bot of a battle thinks at the same
// time whatever the number of the battle's workers. The engine must run it
// as an outside team (engine.TeamSetup.Outside), which records its
// decisions for replays.
//
// Concurrency: as for any controller, the engine calls it for one phase
// at a time; Finish is called once the battle is over, never during a
// phase.
type Controller struct {
	l       link
	id      string         // the bot's class id
	class   engine.ClassID // its ClassID in the battle (resolve)
	broken  string         // why the handshake failed; reported in the first turn
	sent    bool           // SendTurn began this round's exchange
	born    []engine.Birth
	died    []engine.Death
	seen    []bool // per Turn.Squares index: an action named it
	pending []byte // the births and deaths of the message in flight, encoded
	proto   int    // the protocol the bot chose in ready
	m       mirror // protocol 2: what the bot knows (squares2.go)
}

// NewController returns the controller of a bot that answered hello
// (Greet) over conn, whose squares are of class id, one of the battle's
// classes (engine.Options.Classes). greet is Greet's error: when it is not
// nil the bot plays no round, and its team is retired in its first turn
// with the reason.
func NewController(conn Conn, id string, t Timing, greet error) *Controller {
	return NewControllerProtocol(conn, id, t, Protocol, greet)
}

// NewControllerProtocol is NewController for a bot that chose protocol
// (Greeting.Protocol from Handshake): 1 or Protocol2.
func NewControllerProtocol(conn Conn, id string, t Timing, protocol int, greet error) *Controller {
	c := &Controller{l: newLink(conn, t), id: id, class: engine.NoClass, proto: protocol}
	if protocol == Protocol2 {
		c.l.parse = parseLine2
	}
	if greet != nil {
		c.broken = greet.Error()
		c.l.gone = greet
	}
	return c
}

// SendTurn writes the round message in the background.
func (c *Controller) SendTurn(t *engine.Turn) {
	c.sent = true
	c.l.start(at{t.Facts.Round, 0}, c.encoder(t))
}

// encoder returns the function that appends t's round message in the
// bot's protocol.
func (c *Controller) encoder(t *engine.Turn) func([]byte) []byte {
	if c.proto == Protocol2 {
		if c.l.resync { // kept in the mirror until a message goes out
			c.m.full, c.l.resync = true, false
		}
		return func(b []byte) []byte { return c.encodeRound2(b, t) }
	}
	return func(b []byte) []byte { return c.encodeRound(b, t) }
}

// SendSettle does nothing: births and deaths go out with the next round
// message, so a round costs one exchange.
func (c *Controller) SendSettle(*engine.Settlement) {}

// Settle keeps the births and deaths for the next round message.
func (c *Controller) Settle(s *engine.Settlement) {
	if c.l.gone != nil {
		return
	}
	c.born = append(c.born, s.Births...)
	c.died = append(c.died, s.Deaths...)
}

// Turn reads the bot's answer and fills the intents.
func (c *Controller) Turn(t *engine.Turn) {
	round := t.Facts.Round
	c.class = resolve(t.Facts.Classes, c.id, c.class)
	if c.broken != "" {
		c.l.retire(&t.Report, engine.BackstopCrash, c.class, "bot: "+c.broken, c.broken)
		c.broken = ""
		return
	}
	if c.l.retired(&t.Report, c.class) {
		return
	}
	if !c.sent {
		c.l.start(at{round, 0}, c.encoder(t))
	}
	c.sent = false
	if c.proto == Protocol2 {
		c.l.settle(&t.Report, at{round, 0}, c.class, func(m *inbound) error { return c.decode2(m.Orders, t) })
		return
	}
	c.l.settle(&t.Report, at{round, 0}, c.class, func(m *inbound) error { return c.decode(m.Actions, t) })
}

// encodeRound appends the round message of t. It runs on the exchange's
// goroutine while the engine waits for it (the turn and the buffers stay
// put until encoded closes).
func (c *Controller) encodeRound(b []byte, t *engine.Turn) []byte {
	f := t.Facts
	b = append(b, `{"type":"round","round":`...)
	b = appendInt(b, f.Round)
	b = append(b, `,"stats":`...)
	stats, _ := json.Marshal(StatsOf(f.Stats, f.Players))
	b = append(b, stats...)
	b = append(b, `,"born":[`...)
	for i, x := range c.born {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendInt(b, int(x.Child))
		b = append(b, `,"parent":`...)
		b = appendInt(b, int(x.Parent))
		b = c.appendPlace(b, f, x.Class, x.Row, x.Col)
		b = append(b, '}')
	}
	b = append(b, `],"died":[`...)
	for i, x := range c.died {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendInt(b, int(x.Square))
		b = c.appendPlace(b, f, x.Class, x.Row, x.Col)
		b = append(b, `,"killer":`...)
		b = appendInt(b, x.Killer)
		if x.Collision {
			b = append(b, `,"collision":true}`...)
		} else {
			b = append(b, `,"collision":false}`...)
		}
	}
	c.born, c.died = c.born[:0], c.died[:0]
	b = append(b, `],"squares":[`...)
	for i, s := range t.Squares {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = appendInt(b, int(s.ID))
		b = c.appendPlace(b, f, s.Class, s.Row, s.Col)
		b = append(b, `,"view":[`...)
		for d, v := range s.View {
			if d > 0 {
				b = append(b, ',')
			}
			b = appendInt(b, int(v))
		}
		b = append(b, ']', '}')
	}
	return append(b, ']', '}')
}

// appendPlace appends a square's class, row and column fields.
func (c *Controller) appendPlace(b []byte, f *engine.Facts, class engine.ClassID, row, col int) []byte {
	b = append(b, `,"class":`...)
	b = appendString(b, className(f.Classes, class))
	b = append(b, `,"row":`...)
	b = appendInt(b, row)
	b = append(b, `,"col":`...)
	return appendInt(b, col)
}

// resolve returns the ClassID of class id in classes: known, when it is
// already known, else looked up (NoClass when missing).
func resolve(classes []string, id string, known engine.ClassID) engine.ClassID {
	if known != engine.NoClass {
		return known
	}
	for i, c := range classes {
		if c == id {
			return engine.ClassID(i)
		}
	}
	return engine.NoClass
}

func className(classes []string, c engine.ClassID) string {
	if c >= 0 && int(c) < len(classes) {
		return classes[c]
	}
	return ""
}

// action is one entry of an actions message, its fields kept raw so that
// each is checked and named on its own.
type action struct {
	ID     json.RawMessage `json:"id"`
	Do     json.RawMessage `json:"do"`
	Dir    json.RawMessage `json:"dir"`
	Child  json.RawMessage `json:"child"`
	Become json.RawMessage `json:"become"`
}

// decode turns the actions of an answer into t's intents. A structural
// fault (see docs/bots.md) rejects the whole answer: every square waits,
// and the error says why. A wrong order only makes its square wait with
// an error fault.
func (c *Controller) decode(raw json.RawMessage, t *engine.Turn) error {
	if len(raw) == 0 || string(raw) == "null" {
		return malformed(`no "actions"`)
	}
	acts, err := actionsOf(raw)
	if err != nil {
		return err
	}
	if len(acts) > len(t.Squares) {
		return malformed("%d actions for %d squares", len(acts), len(t.Squares))
	}
	index := make([]int, len(acts))
	c.seen = append(c.seen[:0], make([]bool, len(t.Squares))...)
	for i := range acts {
		id, ok := wholeNumber(acts[i].ID)
		if !ok {
			return malformed(`actions[%d]: "id" is %s, not a square id`, i, clip(acts[i].ID))
		}
		k := sort.Search(len(t.Squares), func(k int) bool { return int64(t.Squares[k].ID) >= id })
		if k == len(t.Squares) || int64(t.Squares[k].ID) != id {
			return malformed("actions[%d]: square %d is not one of this round's squares", i, id)
		}
		if c.seen[k] {
			return malformed("actions[%d]: square %d has two actions", i, id)
		}
		c.seen[k], index[i] = true, k
	}
	for i := range acts {
		in, err := c.intent(&acts[i], t.Facts.Classes)
		k := index[i]
		if err != nil {
			t.Intents[k] = engine.WaitIntent
			t.Intents[k].Fault = engine.FaultError
			if c.l.noted(1) {
				t.Report.Problems = append(t.Report.Problems, engine.Problem{Class: t.Squares[k].Class, Square: t.Squares[k].ID,
					Kind: engine.FaultError, Message: fmt.Sprintf("bot: round %d: actions[%d]: %v", t.Facts.Round, i, err)})
			}
			continue
		}
		t.Intents[k] = in
	}
	return nil
}

// actionsOf reads the list of actions in one pass (the common case, a
// well-formed list); when that fails it reads them one by one to say
// which entry is wrong and how.
func actionsOf(raw json.RawMessage) ([]action, error) {
	var acts []action
	if firstByte(raw) == '[' && json.Unmarshal(raw, &acts) == nil {
		ok := true
		for i := range acts {
			ok = ok && len(acts[i].ID) > 0 // a null entry reads as an empty action
		}
		if ok {
			return acts, nil
		}
	}
	var entries []json.RawMessage
	if firstByte(raw) != '[' || json.Unmarshal(raw, &entries) != nil {
		return nil, malformed(`"actions" is not a list`)
	}
	acts = make([]action, len(entries))
	for i, e := range entries {
		if b := firstByte(e); b != '{' {
			return nil, malformed("actions[%d] is not an object", i)
		}
		if err := json.Unmarshal(e, &acts[i]); err != nil {
			return nil, malformed("actions[%d]: %s", i, jsonReason(err))
		}
	}
	return acts, nil
}

// text reads a JSON string: quickly when it holds no escapes.
func text(raw json.RawMessage) (string, bool) {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' && bytes.IndexByte(raw[1:n-1], '\\') < 0 && bytes.IndexByte(raw[1:n-1], '"') < 0 {
		return string(raw[1 : n-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// intent reads one square's order.
func (c *Controller) intent(a *action, classes []string) (engine.Intent, error) {
	in := engine.WaitIntent
	var do string
	if len(a.Do) > 0 {
		var ok bool
		if do, ok = text(a.Do); !ok {
			return in, fmt.Errorf(`"do" is %s, not an action`, clip(a.Do))
		}
	}
	act, ok := engine.ParseAction(do)
	if do == "" {
		act, ok = engine.Wait, true
	}
	if !ok {
		return in, fmt.Errorf("unknown action %s", clip(a.Do))
	}
	in.Action = act
	if act == engine.Wait {
		return in, nil
	}
	if len(a.Dir) == 0 || string(a.Dir) == "null" {
		return in, fmt.Errorf(`%s without "dir"`, act)
	}
	d, err := direction(a.Dir)
	if err != nil {
		return in, err
	}
	in.Dir = d
	own := c.id
	for _, f := range []struct {
		key string
		raw json.RawMessage
		to  *engine.ClassID
	}{{"child", a.Child, &in.Child}, {"become", a.Become, &in.Become}} {
		if len(f.raw) == 0 || string(f.raw) == "null" {
			continue
		}
		if s, ok := text(f.raw); !ok || s != own {
			return engine.WaitIntent, fmt.Errorf("%q is %s: a bot's only class is %q", f.key, clip(f.raw), own)
		}
		*f.to = c.class
	}
	switch {
	case act != engine.Replicate:
		in.Child = engine.NoClass
	case in.Child == engine.NoClass:
		in.Child = c.class // the parent's, as for a Lua square
	}
	return in, nil
}

// direction reads a direction: a name in any case or the number 0 to 7.
func direction(raw json.RawMessage) (engine.Direction, error) {
	if firstByte(raw) == '"' {
		if s, ok := text(raw); ok {
			for i, name := range directionNames {
				if strings.EqualFold(s, name) {
					return engine.Direction(i), nil
				}
			}
		}
	} else if v, ok := wholeNumber(raw); ok && v >= 0 && v < 8 {
		return engine.Direction(v), nil
	}
	return 0, fmt.Errorf("unknown direction %s", clip(raw))
}

// firstByte is the first byte of a JSON value that is not white space.
func firstByte(raw []byte) byte {
	for _, b := range raw {
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return b
		}
	}
	return 0
}
