package bot_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/bottest"
)

// These tests play battles with bots in this process (bottest.Instant):
// a bot of each protocol that keeps what it is told as docs/bots.md says,
// checked every round against the engine's truth.

// client2 is a protocol-2 bot's memory, kept as docs/bots.md says.
type client2 struct {
	size, team int
	wrap       bool
	units      map[int]*unit2
	cells      []int
}

type unit2 struct {
	row, col int
	acts     bool
}

type round2 struct {
	Round   int      `json:"round"`
	Full    bool     `json:"full"`
	Players []string `json:"players"`
	Stats   [][]int  `json:"stats"`
	Died    []int    `json:"died"`
	Moved   []int    `json:"moved"`
	Born    []int    `json:"born"`
	At      []int    `json:"at"`
	Busy    []int    `json:"busy"`
	Free    []int    `json:"free"`
	Cells   []int    `json:"cells"`
}

var steps = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}

func (c *client2) forget() {
	c.units = map[int]*unit2{}
	c.cells = make([]int, c.size*c.size)
	for i := range c.cells {
		c.cells[i] = -1
	}
}

func (c *client2) next(r, col, d int) (int, int, bool) {
	r, col = r+steps[d][0], col+steps[d][1]
	if c.wrap {
		return (r + c.size) % c.size, (col + c.size) % c.size, true
	}
	return r, col, r >= 0 && col >= 0 && r < c.size && col < c.size
}

// apply reads a round message, in the order docs/bots.md gives.
func (c *client2) apply(t *testing.T, m *round2) {
	if m.Full {
		c.forget()
	}
	if len(m.Died)%3+len(m.Moved)%2+len(m.At)%3+len(m.Born)%4+len(m.Cells)%3 != 0 {
		t.Errorf("round %d: a list of groups is cut short: %+v", m.Round, m)
	}
	for i := 0; i+2 < len(m.Died); i += 3 {
		if u := c.units[m.Died[i]]; u != nil {
			c.cells[u.row*c.size+u.col] = -1
			delete(c.units, m.Died[i])
		} else if !m.Full {
			t.Errorf("round %d: died %d, a square the bot does not know", m.Round, m.Died[i])
		}
	}
	var entered []*unit2
	for i := 0; i+1 < len(m.Moved); i += 2 {
		u := c.units[m.Moved[i]]
		if u == nil {
			t.Fatalf("round %d: moved %d, a square the bot does not know", m.Round, m.Moved[i])
		}
		c.cells[u.row*c.size+u.col] = -1
		u.row, u.col, _ = c.next(u.row, u.col, m.Moved[i+1])
		entered = append(entered, u)
	}
	for i := 0; i+2 < len(m.At); i += 3 {
		u := c.units[m.At[i]]
		if u == nil {
			u = &unit2{acts: true}
			c.units[m.At[i]] = u
		} else {
			c.cells[u.row*c.size+u.col] = -1
		}
		u.row, u.col = m.At[i+1], m.At[i+2]
		entered = append(entered, u)
	}
	for i := 0; i+3 < len(m.Born); i += 4 {
		u := &unit2{row: m.Born[i+2], col: m.Born[i+3], acts: true}
		c.units[m.Born[i]] = u
		entered = append(entered, u)
	}
	for _, u := range entered {
		c.cells[u.row*c.size+u.col] = c.team
	}
	for _, id := range m.Busy {
		c.units[id].acts = false
	}
	for _, id := range m.Free {
		c.units[id].acts = true
	}
	for i := 0; i+2 < len(m.Cells); i += 3 {
		c.cells[m.Cells[i]*c.size+m.Cells[i+1]] = m.Cells[i+2]
	}
}

// acting is what the bot makes of its squares that may act, as protocol 1
// would send them.
func (c *client2) acting() []engine.Ready {
	var out []engine.Ready
	for id, u := range c.units {
		if !u.acts {
			continue
		}
		s := engine.Ready{ID: engine.SquareID(id), Row: u.row, Col: u.col}
		for d := range s.View {
			r, col, ok := c.next(u.row, u.col, d)
			if !ok {
				s.View[d] = engine.Wall
				continue
			}
			s.View[d] = int32(c.cells[r*c.size+col])
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b engine.Ready) int { return int(a.ID - b.ID) })
	return out
}

// choose is the test bots' strategy: an order for a square from its view
// and the round alone, whatever the protocol (waits, moves, attacks and
// replications, sometimes into a wall or a teammate).
func choose(round int, s engine.Ready) (do string, dir int) {
	h := mix(uint64(round)<<32 ^ uint64(s.ID)<<8 ^ uint64(s.View[0]+2)<<4 ^ uint64(s.View[3]+2))
	dir = int(h % 8)
	switch (h >> 8) % 7 {
	case 0, 1:
		return "wait", 0
	case 2, 3, 4:
		return "move", dir
	case 5:
		for d, v := range s.View { // an enemy next to it, or anywhere
			if v >= 0 && v != int32(h>>16)%2 {
				return "attack", d
			}
		}
		return "attack", dir
	}
	return "replicate", dir
}

// mix is splitmix64's finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

var dirNames = [8]string{"nw", "n", "ne", "e", "se", "s", "sw", "w"}

// bot2 is a protocol-2 test bot: it checks every message against truth
// (the squares the engine asked it about), asks for a full state every
// resync rounds, and answers with choose.
func bot2(t *testing.T, a arena, team int, truth *[]engine.Ready) *bottest.Instant {
	size, wrap, resync := a.size, a.wrap, a.resync
	strategy := a.strategy()
	c := &client2{size: size, team: team, wrap: wrap}
	c.forget()
	asked := false
	return &bottest.Instant{Ready: []byte(`{"type":"ready","name":"two","protocol":2}`),
		Answer: func(b, msg, round []byte) []byte {
			var m round2
			if err := json.Unmarshal(msg, &m); err != nil {
				t.Fatalf("round message %s: %v", msg, err)
			}
			if asked && !m.Full {
				t.Errorf("round %d: asked for a full state, got %s", m.Round, msg)
			}
			asked = false
			c.apply(t, &m)
			got := c.acting()
			if want := *truth; !reflect.DeepEqual(clean(got), clean(want)) {
				t.Fatalf("round %d: the bot's squares differ from the engine's:\n got %v\nwant %v\nmessage %s", m.Round, got, want, msg)
			}
			if n := m.Stats[team][0]; n != len(c.units) {
				t.Errorf("round %d: the bot knows %d squares, stats say %d", m.Round, len(c.units), n)
			}
			if resync > 0 && m.Round%resync == 0 {
				b = append(b, `{"type":"resync"}`+"\n"...)
				asked = true
			}
			b = append(b, `{"type":"actions","round":`...)
			b = append(b, round...)
			b = append(b, `,"orders":[`...)
			n := 0
			for _, s := range got {
				do, dir := strategy(m.Round, s)
				if do == "wait" && (a.lean || s.ID%2 == 0) {
					continue // waits left out, or not
				}
				if n > 0 {
					b = append(b, ',')
				}
				n++
				b = strconv.AppendInt(b, int64(s.ID), 10)
				if do == "wait" {
					b = append(b, `,"w"`...)
					continue
				}
				order := do[:1] + dirNames[dir]
				if s.ID%3 == 0 {
					order = strings.ToUpper(order)
				}
				b = append(b, `,"`+order+`"`...)
			}
			return append(b, `]}`...)
		}}
}

// clean drops the class, which protocol 2 does not send (a bot's squares
// are all of its class).
func clean(squares []engine.Ready) []engine.Ready {
	out := make([]engine.Ready, len(squares))
	for i, s := range squares {
		s.Class = 0
		out[i] = s
	}
	return out
}

// bot1 is the same strategy over protocol 1.
func bot1(t *testing.T, a arena) *bottest.Instant {
	strategy := a.strategy()
	return &bottest.Instant{Ready: []byte(`{"type":"ready","name":"one"}`),
		Answer: func(b, msg, round []byte) []byte {
			var m struct {
				Round   int
				Squares []struct {
					ID       engine.SquareID
					Row, Col int
					View     [8]int32
				}
			}
			if err := json.Unmarshal(msg, &m); err != nil {
				t.Fatalf("round message %s: %v", msg, err)
			}
			b = append(b, `{"type":"actions","round":`...)
			b = append(b, round...)
			b = append(b, `,"actions":[`...)
			for i, s := range m.Squares {
				do, dir := strategy(m.Round, engine.Ready{ID: s.ID, Row: s.Row, Col: s.Col, View: s.View})
				if i > 0 {
					b = append(b, ',')
				}
				b = fmt.Appendf(b, `{"id":%d,"do":%q,"dir":%q}`, s.ID, do, dirNames[dir])
			}
			return append(b, `]}`...)
		}}
}

// truthful records the squares the engine asks a team about before its
// controller sends them.
type truthful struct {
	*bot.Controller
	squares *[]engine.Ready
}

func (c truthful) SendTurn(t *engine.Turn) {
	*c.squares = append((*c.squares)[:0], t.Squares...)
	c.Controller.SendTurn(t)
}

func (c truthful) Turn(t *engine.Turn) {
	if len(*c.squares) == 0 || (*c.squares)[0].ID != t.Squares[0].ID {
		*c.squares = append((*c.squares)[:0], t.Squares...)
	}
	c.Controller.Turn(t)
}

// arena is a battle between bots of one protocol, every team playing
// choose.
type arena struct {
	size, teams, rounds int
	wrap                bool
	resync              int
	fill                int    // percent of the cells holding a square at the start (0: one square a team)
	bands               bool   // the arena full, each team a band of rows (BenchmarkBotRound's)
	moves               string // the strategy: "" choose, "wait" or "shift" (every square moves east)
	lean                bool   // protocol 2 leaves every wait out
}

// strategy is the arena's strategy.
func (a arena) strategy() func(int, engine.Ready) (string, int) {
	switch a.moves {
	case "wait":
		return func(int, engine.Ready) (string, int) { return "wait", 0 }
	case "shift":
		return func(int, engine.Ready) (string, int) { return "move", int(engine.E) }
	}
	return choose
}

// play plays the battle with bots of protocol proto and returns its
// round logs and the bots' connections.
func (a arena) play(t *testing.T, proto int) ([]engine.RoundLog, []*bottest.Instant) {
	logs, conns, _ := a.playCounted(t, proto)
	return logs, conns
}

// playCounted is play, also counting the squares of the battle round by
// round (the units to divide the bytes by).
func (a arena) playCounted(t *testing.T, proto int) ([]engine.RoundLog, []*bottest.Instant, int) {
	t.Helper()
	timing := bot.Timing{Init: time.Minute, Round: time.Minute}
	classes := make([]string, a.teams)
	var conns []*bottest.Instant
	var setups []engine.TeamSetup
	for team := range a.teams {
		classes[team] = fmt.Sprintf("bot%d", team)
		truth := new([]engine.Ready)
		var conn *bottest.Instant
		if proto == 2 {
			conn = bot2(t, a, team, truth)
		} else {
			conn = bot1(t, a)
		}
		g, err := bot.Handshake(conn, bot.Hello{Game: "squarebattle", Kind: bot.KindSquares, Team: team, Teams: a.teams, Size: a.size, Wrap: a.wrap}, timing)
		if err != nil || g.Protocol != proto {
			t.Fatalf("handshake: %+v, %v", g, err)
		}
		c := bot.NewControllerProtocol(conn, classes[team], timing, g.Protocol, nil)
		conns = append(conns, conn)
		setups = append(setups, engine.TeamSetup{Player: engine.Player{Class: engine.ClassID(team), Name: g.Name},
			Controller: truthful{c, truth}, Outside: true})
	}
	o := engine.Options{Size: a.size, Wrap: a.wrap, Rounds: a.rounds, ReplicateRounds: 2, Seed: 5,
		Workers: 2, Classes: classes, Teams: setups}
	if a.bands {
		o.Map = &engine.Map{Size: a.size, Cells: make([]int, a.size*a.size)}
		for i := range o.Map.Cells {
			o.Map.Cells[i] = (i / a.size) * a.teams / a.size
		}
	}
	if a.fill > 0 {
		o.Map = &engine.Map{Size: a.size, Cells: make([]int, a.size*a.size)}
		for i := range o.Map.Cells {
			o.Map.Cells[i] = engine.Empty
			if h := mix(uint64(i) + 99); int(h%100) < a.fill {
				o.Map.Cells[i] = int(h>>8) % a.teams
			}
		}
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	rec := engine.NewRecorder(b)
	var logs []engine.RoundLog
	units := 0
	for !b.Over() {
		for team := range a.teams {
			units += b.Stats(team).Squares // those the round's message is about
		}
		b.Step()
		logs = append(logs, rec.Next())
	}
	for team, s := range setups {
		st := b.Stats(team)
		if st.Timeouts+st.Errors != 0 {
			t.Errorf("team %d has faults: %+v", team, st)
		}
		s.Controller.(truthful).Finish(bot.End{Round: b.Round(), Winner: b.Winner()})
	}
	return logs, conns, units
}

// TestProtocol2Mirror: in battles full of moves, attacks, births and
// deaths, on arenas that wrap and that do not, what a protocol-2 bot
// rebuilds from the round messages is, every round, exactly what protocol
// 1 would have sent it (the squares that may act, where, and their views),
// also after it asks for a full state; and the battle is the one the same
// strategy plays over protocol 1, round for round.
func TestProtocol2Mirror(t *testing.T) {
	for _, a := range []arena{
		{size: 12, teams: 2, rounds: 120, wrap: true},
		{size: 9, teams: 3, rounds: 120, wrap: false, resync: 7},
		{size: 16, teams: 4, rounds: 80, wrap: true, resync: 1},
		{size: 40, teams: 4, rounds: 60, wrap: true, resync: 25, fill: 40},
		{size: 30, teams: 2, rounds: 60, wrap: false, fill: 70},
	} {
		t.Run(fmt.Sprintf("%dx%d-wrap=%v-resync=%d-fill=%d", a.size, a.size, a.wrap, a.resync, a.fill), func(t *testing.T) {
			logs2, conns := a.play(t, 2)
			logs1, _ := a.play(t, 1)
			if len(logs1) != len(logs2) {
				t.Fatalf("protocol 1 played %d rounds, protocol 2 %d", len(logs1), len(logs2))
			}
			births, deaths := 0, 0
			for i := range logs1 {
				if !reflect.DeepEqual(logs1[i], logs2[i]) {
					t.Fatalf("round %d differs between the protocols:\n1: %+v\n2: %+v", logs1[i].Round, logs1[i], logs2[i])
				}
				births += len(logs1[i].Births)
				deaths += len(logs1[i].Deaths)
			}
			t.Logf("%d rounds, %d births, %d deaths, %d messages, %d bytes in, %d out", len(logs1), births, deaths, conns[0].Messages, conns[0].In, conns[0].Out)
			if births == 0 || deaths == 0 || conns[0].Messages < 20 {
				t.Errorf("a dull battle: %d births, %d deaths, %d messages", births, deaths, conns[0].Messages)
			}
		})
	}
}

// TestProtocol2Bytes: what a round costs on the wire per square, each way,
// in both protocols (deterministic, so a test may bound it): the
// benchmark's full arena of four teams of 1,024 squares waiting
// (BenchmarkBotRound: protocol 1 writes every wait, as the reference bot
// does), the same arena with every square stepping east every round (every
// square moves, none dies), and a battle of moves, attacks, births and
// deaths. Protocol 2 must cost at most 25 bytes a square a round both ways
// together in the first two, and less than half protocol 1 in the third.
func TestProtocol2Bytes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a     arena
		bound float64 // protocol 2, both ways, per square and round
	}{
		{"wait", arena{size: 64, teams: 4, rounds: 11, wrap: true, bands: true, moves: "wait", lean: true}, 25},
		{"shift", arena{size: 64, teams: 4, rounds: 11, wrap: true, bands: true, moves: "shift", lean: true}, 25},
		{"battle", arena{size: 64, teams: 4, rounds: 40, wrap: true, fill: 40, lean: true}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var per [3][2]float64 // [protocol][in, out]
			for _, proto := range []int{1, 2} {
				_, conns, units := tc.a.playCounted(t, proto)
				var in, out int64
				for _, c := range conns {
					in, out = in+c.In, out+c.Out
				}
				per[proto] = [2]float64{float64(in) / float64(units), float64(out) / float64(units)}
				t.Logf("protocol %d: %.2f bytes a square a round in, %.2f out (%d square-rounds)", proto, per[proto][0], per[proto][1], units)
			}
			p1, p2 := per[1][0]+per[1][1], per[2][0]+per[2][1]
			t.Logf("both ways: protocol 1 %.2f, protocol 2 %.2f bytes a square a round (%.1f× less)", p1, p2, p1/p2)
			if tc.bound > 0 && p2 > tc.bound {
				t.Errorf("protocol 2 costs %.2f bytes a square a round, more than %v", p2, tc.bound)
			}
			if p2 > p1/2 {
				t.Errorf("protocol 2 costs %.2f bytes a square a round, protocol 1 %.2f", p2, p1)
			}
		})
	}
}
