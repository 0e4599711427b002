package bot

import (
	"encoding/json"
	"fmt"

	"github.com/squarebattle/squarebattle/engine"
)

// Codec turns a rule mod's plain values (views, answers) into JSON text
// and back. luabind provides both (luabind.PlainToJSON, PlainFromJSON);
// they are injected so that this package stays free of Lua.
type Codec struct {
	ToJSON   func(v any) ([]byte, error)
	FromJSON func(text []byte) (any, error)
}

// Caller answers a rule mod team's calls for a bot: one round message per
// batch of the team's calls, one answer line for all of them.
//
// The engine must run it as an outside team (engine.ModTeam.Outside),
// which records its answers for replays.
//
// Concurrency: as for any caller, the engine calls it for one batch at a
// time; Finish is called once the battle is over, never during a batch.
type Caller struct {
	l      link
	id     string         // the bot's class id
	class  engine.ClassID // its ClassID in the battle (resolve)
	codec  Codec
	broken string
	forget []int
}

// NewCaller returns the caller of a bot that answered hello (Greet) over
// conn; id is the bot's class id, one of the battle's classes, codec
// converts views and answers. greet is Greet's error: when it is not nil
// the bot answers no call, and its team is retired in its first batch
// with the reason.
func NewCaller(conn Conn, id string, codec Codec, t Timing, greet error) *Caller {
	c := &Caller{l: newLink(conn, t), id: id, class: engine.NoClass, codec: codec}
	if greet != nil {
		c.broken = greet.Error()
		c.l.gone = greet
	}
	return c
}

// Call asks the bot for the answers to the team's calls of one batch.
func (c *Caller) Call(t *engine.ModTurn) {
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
	if c.l.gone != nil {
		return
	}
	c.forget = append(c.forget, t.Forget...)
	where := at{round, t.Batch}
	c.l.start(where, func(b []byte) []byte { return c.encodeRound(b, t) })
	c.l.settle(&t.Report, where, c.class, func(m *inbound) error { return c.decode(m.Answers, t) })
}

// encodeRound appends the round message of one batch. It runs on the
// exchange's goroutine while Call waits for it.
func (c *Caller) encodeRound(b []byte, t *engine.ModTurn) []byte {
	f := t.Facts
	b = append(b, `{"type":"round","round":`...)
	b = appendInt(b, f.Round)
	b = append(b, `,"batch":`...)
	b = appendInt(b, t.Batch)
	values, _ := json.Marshal(f.Values)
	b = append(b, `,"values":`...)
	b = append(b, values...)
	b = append(b, `,"forget":[`...)
	for i, u := range c.forget {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, u)
	}
	c.forget = c.forget[:0]
	b = append(b, `],"calls":[`...)
	for i, call := range t.Calls {
		if i > 0 {
			b = append(b, ',')
		}
		class := c.class
		if call.Class != engine.NoClass {
			class = call.Class
		}
		b = append(b, `{"unit":`...)
		b = appendInt(b, call.Unit)
		b = append(b, `,"class":`...)
		b = appendString(b, className(f.Classes, class))
		b = append(b, `,"view":`...)
		view, err := c.codec.ToJSON(call.View)
		if err != nil || len(view) == 0 { // the rules' view, checked plain when they gave it: not the bot's fault
			view = []byte("null")
		}
		b = append(b, view...)
		b = append(b, '}')
	}
	return append(b, ']', '}')
}

// decode turns the answers of an answer line into t's answers. More
// answers than calls, or answers that are not a list, reject the line; an
// answer that cannot become a plain value is that call's error.
func (c *Caller) decode(raw json.RawMessage, t *engine.ModTurn) error {
	if len(raw) == 0 || string(raw) == "null" {
		return malformed(`no "answers"`)
	}
	var answers []json.RawMessage
	if firstByte(raw) != '[' || json.Unmarshal(raw, &answers) != nil {
		return malformed(`"answers" is not a list`)
	}
	if len(answers) > len(t.Calls) {
		return malformed("%d answers for %d calls", len(answers), len(t.Calls))
	}
	for i, a := range answers {
		if string(a) == "null" {
			continue
		}
		v, err := c.codec.FromJSON(a)
		if err != nil {
			t.Answers[i] = engine.Answer{Fault: engine.FaultError}
			if c.l.noted(1) {
				t.Report.Problems = append(t.Report.Problems, engine.Problem{Class: c.class, Square: -1, Kind: engine.FaultError,
					Message: fmt.Sprintf("bot: round %d: answers[%d]: %v", t.Facts.Round, i, err)})
			}
			continue
		}
		t.Answers[i] = engine.Answer{Value: v}
	}
	return nil
}

// Finish tells the bot how the battle ended and stops it.
func (c *Caller) Finish(e End) { c.l.finish(e) }
