//go:build unix

package kits

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wireHello is the engine's hello as docs/bots.md writes it.
type wireHello struct {
	Type      string         `json:"type"`
	Protocol  int            `json:"protocol"`
	Game      string         `json:"game"`
	Kind      string         `json:"kind"`
	Seed      int64          `json:"seed"`
	Team      int            `json:"team"`
	Teams     int            `json:"teams"`
	Size      int            `json:"size"`
	Wrap      bool           `json:"wrap"`
	Rounds    int            `json:"rounds"`
	Players   []string       `json:"players"`
	Class     string         `json:"class,omitempty"`
	Classes   []string       `json:"classes"`
	Constants map[string]int `json:"constants"`
	Columns   []string       `json:"columns,omitempty"`
	Time      map[string]int `json:"time"`
}

func newHello(game, kind string, team, teams, size int, wrap bool) wireHello {
	h := wireHello{
		Type: "hello", Protocol: 1, Game: game, Kind: kind, Seed: 7, Team: team, Teams: teams,
		Size: size, Wrap: wrap, Rounds: 1500, Class: "bot1",
		Constants: map[string]int{"replicate_rounds": 100},
		Time:      map[string]int{"init_ms": 5000, "round_ms": 200, "bank_ms": 1000},
	}
	for i := range teams {
		h.Players = append(h.Players, fmt.Sprintf("Team %d", i))
		h.Classes = append(h.Classes, fmt.Sprintf("bot%d", i+1))
	}
	if kind == "calls" {
		h.Class, h.Rounds = "", 200000
		h.Constants = map[string]int{"start_length": 3, "growth": 1, "patience": 250, "games": 39, "solo_games": 10}
		h.Columns = []string{"score", "games", "pellets", "ticks", "length"}
	}
	return h
}

var wireEnd = map[string]any{"type": "end", "round": 500, "winner": -1, "reason": "the round limit"}

// ---- SquareBattle ----

// kitSteps are the (row, col) steps of the view's directions, index 0
// north-west then clockwise; kitDirs their names.
var (
	kitSteps = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}
	kitDirs  = []string{"nw", "n", "ne", "e", "se", "s", "sw", "w"}
)

// arenaPicture is an arena drawn top row first, one cell a word: "." an
// empty cell, a digit a square of that team.
type arenaPicture struct {
	size int
	wrap bool
	grid map[[2]int]int // (row, col) -> team
}

func drawArena(wrap bool, rows ...string) arenaPicture {
	a := arenaPicture{size: len(rows), wrap: wrap, grid: map[[2]int]int{}}
	for i, line := range rows {
		row := len(rows) - 1 - i
		for col, word := range strings.Fields(line) {
			if word != "." {
				a.grid[[2]int{row, col}] = int(word[0] - '0')
			}
		}
	}
	return a
}

// next is the cell one step from (row, col) in direction d, and whether
// it is on the arena.
func (a arenaPicture) next(row, col, d int) ([2]int, bool) {
	r, c := row+kitSteps[d][0], col+kitSteps[d][1]
	if a.wrap {
		return [2]int{(r + a.size) % a.size, (c + a.size) % a.size}, true
	}
	return [2]int{r, c}, r >= 0 && r < a.size && c >= 0 && c < a.size
}

// view is what a square at (row, col) sees.
func (a arenaPicture) view(row, col int) [8]int {
	var v [8]int
	for d := range 8 {
		c, on := a.next(row, col, d)
		t, taken := a.grid[c]
		switch {
		case !on:
			v[d] = -2
		case taken:
			v[d] = t
		default:
			v[d] = -1
		}
	}
	return v
}

type wireSquare struct {
	ID    int    `json:"id"`
	Class string `json:"class"`
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	View  [8]int `json:"view"`
}

type wireSquaresRound struct {
	Type    string           `json:"type"`
	Round   int              `json:"round"`
	Stats   []map[string]any `json:"stats"`
	Born    []any            `json:"born"`
	Died    []any            `json:"died"`
	Squares []wireSquare     `json:"squares"`
}

// round is the message team gets for the picture: all its squares act,
// ids ascending (an id is the square's cell, so a square drawn in the
// same place in two rounds is the same square).
func (a arenaPicture) round(round, team, teams int) wireSquaresRound {
	m := wireSquaresRound{Type: "round", Round: round, Born: []any{}, Died: []any{}, Squares: []wireSquare{}}
	counts := make([]int, teams)
	for row := range a.size {
		for col := range a.size {
			t, ok := a.grid[[2]int{row, col}]
			if !ok {
				continue
			}
			counts[t]++
			if t == team {
				m.Squares = append(m.Squares, wireSquare{ID: row*a.size + col + 1, Class: "bot1", Row: row, Col: col, View: a.view(row, col)})
			}
		}
	}
	for t, n := range counts {
		m.Stats = append(m.Stats, map[string]any{"player": fmt.Sprintf("Team %d", t), "squares": n, "births": 0,
			"kills": 0, "deaths": 0, "collisions": 0, "timeouts": 0, "errors": 0})
	}
	return m
}

// checkSquaresAnswer judges a kit's answer to a round: well formed as
// docs/bots.md says, and keeping the kits' promise never to hurt their
// own team (no two squares into one cell, no step into a cell that was
// not empty, no attack on a teammate or on a cell a teammate enters) and
// to attack an enemy next to them. It returns the orders given, by kind.
func checkSquaresAnswer(t *testing.T, a arenaPicture, msg wireSquaresRound, team int, line []byte) map[string]int {
	t.Helper()
	var answer struct {
		Type    string            `json:"type"`
		Round   *int              `json:"round"`
		Actions []json.RawMessage `json:"actions"`
	}
	if err := strictJSON(line, &answer); err != nil || answer.Type != "actions" || answer.Round == nil || answer.Actions == nil {
		t.Fatalf("round %d: want an actions line with round and actions, got %s (%v)", msg.Round, line, err)
	}
	if *answer.Round != msg.Round {
		t.Errorf("round %d: the answer echoes round %d", msg.Round, *answer.Round)
	}
	squares := map[int]wireSquare{}
	for _, sq := range msg.Squares {
		squares[sq.ID] = sq
	}
	done := map[int]string{}     // square id -> its order
	entered := map[[2]int]int{}  // cell -> the square moving or giving birth there
	attacked := map[[2]int]int{} // cell -> a square attacking it
	kinds := map[string]int{}
	for i, raw := range answer.Actions {
		var act struct {
			ID     *int            `json:"id"`
			Do     string          `json:"do"`
			Dir    json.RawMessage `json:"dir"`
			Child  *string         `json:"child"`
			Become *string         `json:"become"`
		}
		d := json.NewDecoder(strings.NewReader(string(raw)))
		d.DisallowUnknownFields()
		if err := d.Decode(&act); err != nil || act.ID == nil {
			t.Errorf("round %d: actions[%d] %s: %v", msg.Round, i, raw, err)
			continue
		}
		sq, ok := squares[*act.ID]
		if !ok || done[*act.ID] != "" {
			t.Errorf("round %d: actions[%d]: id %d is not one of the round's squares, or is given twice", msg.Round, i, *act.ID)
			continue
		}
		done[sq.ID] = act.Do
		kinds[act.Do]++
		if (act.Child != nil && *act.Child != "bot1") || (act.Become != nil && *act.Become != "bot1") {
			t.Errorf("round %d: square %d: child or become names a class other than the bot's own: %s", msg.Round, sq.ID, raw)
		}
		if act.Do == "wait" {
			continue
		}
		if !slices.Contains([]string{"move", "attack", "replicate"}, act.Do) {
			t.Errorf("round %d: square %d: unknown order %q", msg.Round, sq.ID, act.Do)
			continue
		}
		dir := -1
		var name string
		var num int
		if json.Unmarshal(act.Dir, &name) == nil {
			dir = slices.Index(kitDirs, strings.ToLower(name))
		} else if json.Unmarshal(act.Dir, &num) == nil && num >= 0 && num < 8 {
			dir = num
		}
		if dir < 0 {
			t.Errorf("round %d: square %d: %s without a direction 0 to 7 or nw..w: %s", msg.Round, sq.ID, act.Do, raw)
			continue
		}
		cell, _ := a.next(sq.Row, sq.Col, dir)
		switch v := sq.View[dir]; {
		case act.Do == "attack" && (v == team || v == -2):
			t.Errorf("round %d: square %d attacks %s, where its view has %d", msg.Round, sq.ID, kitDirs[dir], v)
		case act.Do == "attack":
			attacked[cell] = sq.ID
		case v != -1:
			t.Errorf("round %d: square %d: %s into %s, which is not empty (%d)", msg.Round, sq.ID, act.Do, kitDirs[dir], v)
		case entered[cell] != 0:
			t.Errorf("round %d: squares %d and %d both enter cell %v", msg.Round, entered[cell], sq.ID, cell)
		default:
			entered[cell] = sq.ID
		}
	}
	for cell, by := range attacked {
		if who := entered[cell]; who != 0 {
			t.Errorf("round %d: square %d attacks cell %v, which teammate %d enters", msg.Round, by, cell, who)
		}
	}
	for _, sq := range msg.Squares {
		enemy := slices.ContainsFunc(sq.View[:], func(v int) bool { return v >= 0 && v != team })
		if enemy && done[sq.ID] != "attack" {
			t.Errorf("round %d: square %d has an enemy next to it (view %v) and does not attack (%q)", msg.Round, sq.ID, sq.View, done[sq.ID])
		}
	}
	return kinds
}

// squaresConversation is a battle as a kit's bot sees it: the pictures of
// the rounds it is asked.
type squaresConversation struct {
	name        string
	team, teams int
	wrap        bool
	rounds      []int
	pictures    [][]string
}

var squaresConversations = []squaresConversation{
	{
		// Walls, a ring of squares that all want the cell inside it and
		// the cells around it, enemies to attack, and one square with no
		// room at all; asked again at round 130, when every square is due
		// to replicate (the kits wait 20 to 60 rounds from first sight).
		name: "walls", team: 1, teams: 3, rounds: []int{1, 130, 131},
		pictures: [][]string{
			{
				"1 . . . . . 1",
				". . . . . . .",
				". . 1 1 1 . .",
				". . 1 . 1 . 2",
				". . 1 1 1 . .",
				". . . 0 . . .",
				"1 . . . . . 1",
			},
			{
				"1 . . . . . 1",
				". . . . . . .",
				". . 1 1 1 . .",
				". . 1 . 1 . .",
				". . 1 1 1 . .",
				". . . . . . .",
				"1 . . . . . 1",
			},
			{
				"1 1 1 . . . 1",
				"1 1 1 . . . .",
				"1 1 1 . . . .",
				". . . 2 . . .",
				". . . . . . .",
				". . . . . . .",
				"1 . . . . 0 1",
			},
		},
	},
	{
		// A wrapping arena: enemies across the edges, and squares whose
		// free cells are across the edges.
		name: "wrap", team: 0, teams: 2, wrap: true, rounds: []int{1, 200},
		pictures: [][]string{
			{
				"0 . . . . 1",
				". . . . . .",
				". . 0 0 . .",
				". . 0 0 . .",
				". . . . . .",
				"1 . . . . 0",
			},
			{
				"0 0 . . 0 0",
				"0 . . . . 0",
				". . 0 0 . .",
				". . 0 0 . .",
				"0 . . . . 0",
				"0 0 . . 0 0",
			},
		},
	},
}

// TestKitsSquaresProtocol plays each kit's SquareBattle bot through the
// conversations, over stdio and TCP, judging every answer.
func TestKitsSquaresProtocol(t *testing.T) {
	forEachKit(t, kitSquares, func(t *testing.T, argv []string, tcp bool) {
		for _, c := range squaresConversations {
			t.Run(c.name, func(t *testing.T) {
				first := drawArena(c.wrap, c.pictures[0]...)
				s := startKit(t, argv, tcp, c.team)
				s.handshake(newHello("squarebattle", "squares", c.team, c.teams, first.size, c.wrap))
				orders := map[string]int{}
				for i, rows := range c.pictures {
					a := drawArena(c.wrap, rows...)
					msg := a.round(c.rounds[i], c.team, c.teams)
					line := s.receiveAfter(msg, fmt.Sprintf("round %d", msg.Round))
					for kind, n := range checkSquaresAnswer(t, a, msg, c.team, line) {
						orders[kind] += n
					}
				}
				s.finish(wireEnd)
				for _, kind := range []string{"move", "attack", "replicate"} {
					if orders[kind] == 0 {
						t.Errorf("no square was ordered to %s in the whole conversation (orders: %v)", kind, orders)
					}
				}
			})
		}
	})
}

// ---- snake ----

type snakeCell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// snakeScene is one tick of snake as team 0 sees it.
type snakeScene struct {
	name   string
	size   int
	pellet *snakeCell
	snakes []snakeState
	want   []string // the only good answers; nil: any move that does not kill at once
}

type snakeState struct {
	dir  string
	grow int
	body []snakeCell // head first; nil: dead
}

var snakeMoves = map[string]snakeCell{"up": {0, 1}, "down": {0, -1}, "left": {-1, 0}, "right": {1, 0}}

// snakeBody is a body from cells given as x, y pairs.
func snakeBody(xy ...int) []snakeCell {
	var b []snakeCell
	for i := 0; i < len(xy); i += 2 {
		b = append(b, snakeCell{xy[i], xy[i+1]})
	}
	return b
}

var snakeScenes = []snakeScene{
	{
		name: "the start", size: 10, pellet: &snakeCell{7, 3},
		snakes: []snakeState{{"right", 0, snakeBody(3, 3, 2, 3, 1, 3)}, {"right", 0, snakeBody(3, 6, 2, 6, 1, 6)}},
		want:   []string{"right"},
	},
	{
		name: "a corner", size: 10, pellet: &snakeCell{0, 9},
		snakes: []snakeState{{"right", 0, snakeBody(9, 0, 8, 0, 7, 0)}, {"left", 0, snakeBody(3, 6, 4, 6, 5, 6)}},
		want:   []string{"up"},
	},
	{
		// The pellet lies in a pocket of one cell walled in by the other
		// snake: going for it is death a tick later.
		name: "a dead end", size: 10, pellet: &snakeCell{5, 5},
		snakes: []snakeState{
			{"right", 0, snakeBody(4, 5, 3, 5, 2, 5)},
			{"up", 0, snakeBody(5, 7, 5, 6, 6, 6, 6, 5, 6, 4, 5, 4, 4, 4)},
		},
		want: []string{"up", "down"},
	},
	{
		// A tail moves away, unless its snake is growing: the way out is
		// into the snake's own tail, not the other snake's.
		name: "tails", size: 10, pellet: &snakeCell{9, 9},
		snakes: []snakeState{
			{"left", 0, snakeBody(1, 1, 2, 1, 2, 2, 1, 2)},
			{"right", 1, snakeBody(2, 0, 1, 0, 0, 0, 0, 1)},
		},
		want: []string{"up"},
	},
	{
		// The other snake is dead (its body an empty table, which may come
		// as {}), and there is no pellet.
		name: "alone", size: 10,
		snakes: []snakeState{{"up", 2, snakeBody(5, 5, 5, 4, 5, 3)}, {"right", 0, nil}},
	},
}

// snakeView is the view of team 0 in a scene, as rules.lua builds it.
func (sc snakeScene) view(round int) map[string]any {
	var snakes []map[string]any
	for t, s := range sc.snakes {
		var body any = json.RawMessage("{}") // an empty Lua table
		if s.body != nil {
			body = s.body
		}
		snakes = append(snakes, map[string]any{"team": t, "alive": s.body != nil, "dir": s.dir, "grow": s.grow, "body": body})
	}
	v := map[string]any{"me": 0, "size": sc.size, "round": round, "tick": round, "game": 1, "games": 39,
		"patience": 250, "quiet": 0, "growth": 1, "snakes": snakes}
	if sc.pellet != nil {
		v["pellet"] = sc.pellet
	}
	return v
}

// safe tells whether a move of team 0 does not kill it at once: on the
// board, not back into its neck, not onto a body cell that stays.
func (sc snakeScene) safe(move string) bool {
	me := sc.snakes[0]
	m, ok := snakeMoves[move]
	if !ok {
		return false
	}
	head := snakeCell{me.body[0].X + m.X, me.body[0].Y + m.Y}
	if head.X < 0 || head.Y < 0 || head.X >= sc.size || head.Y >= sc.size || (len(me.body) > 1 && head == me.body[1]) {
		return false
	}
	for _, s := range sc.snakes {
		for i, c := range s.body {
			if c == head && (i < len(s.body)-1 || s.grow > 0) {
				return false
			}
		}
	}
	return true
}

// TestKitsSnakeProtocol plays each kit's snake bot through the scenes,
// over stdio and TCP: every answer echoes round and batch, answers the one
// call, and is a move that does not kill, the best one where there is one.
func TestKitsSnakeProtocol(t *testing.T) {
	forEachKit(t, kitSnake, func(t *testing.T, argv []string, tcp bool) {
		s := startKit(t, argv, tcp, 0)
		s.handshake(newHello("snake", "calls", 0, 2, 10, false))
		for i, sc := range snakeScenes {
			round := i + 1
			msg := map[string]any{"type": "round", "round": round, "batch": 0, "values": [][]int{{0, 0, 0, 0, 3}, {0, 0, 0, 0, 3}},
				"forget": []int{}, "calls": []map[string]any{{"unit": 0, "class": "bot1", "view": sc.view(round)}}}
			line := s.receiveAfter(msg, sc.name)
			var answer struct {
				Type    string   `json:"type"`
				Round   *int     `json:"round"`
				Batch   *int     `json:"batch"`
				Answers []string `json:"answers"`
			}
			if err := strictJSON(line, &answer); err != nil || answer.Type != "actions" || answer.Round == nil || answer.Batch == nil {
				t.Fatalf("%s: want an actions line with round, batch and answers, got %s (%v)", sc.name, line, err)
			}
			if *answer.Round != round || *answer.Batch != 0 || len(answer.Answers) != 1 {
				t.Errorf("%s: want round %d, batch 0 and one answer, got %s", sc.name, round, line)
				continue
			}
			move := answer.Answers[0]
			switch {
			case !sc.safe(move):
				t.Errorf("%s: %q kills the snake", sc.name, move)
			case sc.want != nil && !slices.Contains(sc.want, move):
				t.Errorf("%s: %q, want one of %v", sc.name, move, sc.want)
			}
		}
		s.finish(map[string]any{"type": "end", "round": 9, "winner": 0, "reason": "one snake left", "values": [][]int{{9, 1, 0, 5, 3}, {5, 0, 0, 5, 0}}})
	})
}

// ---- SquareBattle, protocol 2 ----

// kitProtocols is the protocol each kit's SquareBattle bot chooses when
// hello offers 1 and 2: the Go kit speaks protocol 2, the others stay with
// protocol 1 and show that a bot of protocol 1 needs no change.
var kitProtocols = map[string]int{"python": 1, "node": 1, "go": 2}

// round2 is the protocol-2 message for the picture (docs/bots.md,
// "Protocol 2"): full for the first, then what changed since prev (its
// squares gone as died, new ones in at) with every cell around a square
// that acts, changed or not, which a bot must take as it takes a change.
func (a arenaPicture) round2(prev *arenaPicture, round, team, teams int) map[string]any {
	p1 := a.round(round, team, teams)
	var stats [][]int
	for _, s := range p1.Stats {
		stats = append(stats, []int{s["squares"].(int), 0, 0, 0, 0, 0, 0})
	}
	m := map[string]any{"type": "round", "round": round, "stats": stats}
	mine := func(p arenaPicture) map[int]bool {
		ids := map[int]bool{}
		for cell, t := range p.grid {
			if t == team {
				ids[cell[0]*p.size+cell[1]+1] = true
			}
		}
		return ids
	}
	now := mine(a)
	at, cells := []int{}, []int{}
	for _, sq := range p1.Squares {
		if prev == nil || !mine(*prev)[sq.ID] {
			at = append(at, sq.ID, sq.Row, sq.Col)
		}
		for d, v := range sq.View {
			if c, on := a.next(sq.Row, sq.Col, d); on && (prev != nil || v != -1 && v != team) {
				cells = append(cells, c[0], c[1], v)
			}
		}
	}
	if prev == nil {
		m["full"], m["players"] = true, []string{"Team 0", "Team 1", "Team 2"}[:teams]
	} else {
		died := []int{}
		for id := range mine(*prev) {
			if !now[id] {
				died = append(died, id, (team+1)%teams, 0)
			}
		}
		m["died"] = died
	}
	m["at"], m["cells"] = at, cells
	return m
}

// TestKitsSquaresProtocol2 plays the conversations of
// TestKitsSquaresProtocol with a hello that offers protocols 1 and 2: each
// kit chooses the protocol kitProtocols says; a kit of protocol 2 gets the
// pictures as protocol 2's messages (the first full, then changes) and its
// orders are judged as the same answer in protocol 1 would be.
func TestKitsSquaresProtocol2(t *testing.T) {
	for _, k := range kits {
		t.Run(k.lang, func(t *testing.T) {
			needKit(t, k)
			argv := k.argv(t, kitSquares)
			for _, tcp := range []bool{false, true} {
				t.Run(map[bool]string{false: "stdio", true: "tcp"}[tcp], func(t *testing.T) {
					for _, c := range squaresConversations {
						t.Run(c.name, func(t *testing.T) { kitConversation2(t, argv, tcp, c, kitProtocols[k.lang]) })
					}
				})
			}
		})
	}
}

func kitConversation2(t *testing.T, argv []string, tcp bool, c squaresConversation, want int) {
	first := drawArena(c.wrap, c.pictures[0]...)
	s := startKit(t, argv, tcp, c.team)
	hello := struct {
		wireHello
		Protocols []int `json:"protocols"`
	}{newHello("squarebattle", "squares", c.team, c.teams, first.size, c.wrap), []int{1, 2}}
	line := s.receiveAfter(hello, "hello")
	var ready struct {
		Type, Name string
		Protocol   int
	}
	if err := strictJSON(line, &ready); err != nil || ready.Type != "ready" || ready.Name == "" {
		t.Fatalf("hello: want a ready line, got %s (%v)", line, err)
	}
	if got := max(ready.Protocol, 1); got != want {
		t.Fatalf("the kit chose protocol %d, want %d: %s", got, want, line)
	}
	orders := map[string]int{}
	var prev *arenaPicture
	for i, rows := range c.pictures {
		a := drawArena(c.wrap, rows...)
		msg := a.round(c.rounds[i], c.team, c.teams)
		if want == 1 {
			line = s.receiveAfter(msg, fmt.Sprintf("round %d", msg.Round))
		} else {
			line = actionsOf2(t, s.receiveAfter(a.round2(prev, c.rounds[i], c.team, c.teams), fmt.Sprintf("round %d", msg.Round)))
		}
		for kind, n := range checkSquaresAnswer(t, a, msg, c.team, line) {
			orders[kind] += n
		}
		prev = &a
	}
	s.finish(wireEnd)
	for _, kind := range []string{"move", "attack", "replicate"} {
		if orders[kind] == 0 {
			t.Errorf("no square was ordered to %s in the whole conversation (orders: %v)", kind, orders)
		}
	}
}

// actionsOf2 reads a protocol-2 answer and writes it as protocol 1's, for
// checkSquaresAnswer: pairs of an id and an order ("w", or a letter of
// move, attack, replicate and a direction name).
func actionsOf2(t *testing.T, line []byte) []byte {
	t.Helper()
	var answer struct {
		Type   string `json:"type"`
		Round  *int   `json:"round"`
		Orders []any  `json:"orders"`
	}
	if err := strictJSON(line, &answer); err != nil || answer.Type != "actions" || answer.Round == nil || answer.Orders == nil || len(answer.Orders)%2 != 0 {
		t.Fatalf("want a protocol-2 actions line with round and pairs of orders, got %s (%v)", line, err)
	}
	acts := []map[string]any{}
	for i := 0; i < len(answer.Orders); i += 2 {
		id, ok1 := answer.Orders[i].(float64)
		order, ok2 := answer.Orders[i+1].(string)
		if !ok1 || !ok2 || order == "" {
			t.Fatalf("orders[%d]: %v, %v is not an id and an order: %s", i, answer.Orders[i], answer.Orders[i+1], line)
		}
		do := map[byte]string{'w': "wait", 'm': "move", 'a': "attack", 'r': "replicate"}[strings.ToLower(order)[0]]
		act := map[string]any{"id": int(id), "do": do}
		if do == "" {
			act["do"] = order
		}
		if order != "w" {
			act["dir"] = strings.ToLower(order[1:])
		}
		acts = append(acts, act)
	}
	b, _ := json.Marshal(map[string]any{"type": "actions", "round": *answer.Round, "actions": acts})
	return b
}
