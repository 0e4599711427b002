// Package botio is the talking half of a SquareBattle bot, shared by the
// squares and snake bots: the protocol's messages as Go types, and Play,
// which runs the conversation.
//
// The engine and a bot exchange JSON messages, one a line (docs/bots.md):
//
//	engine -> bot   hello    once, with the game, the arena and the rules
//	bot -> engine   ready    once, with the bot's name
//	engine -> bot   round    every round
//	bot -> engine   actions  exactly one answer to every round
//	engine -> bot   end      once, with the result; then the bot exits
//
// In SquareBattle, when hello offers protocol 2, Play chooses it: the
// round messages then say only what changed, and Play keeps the rest
// (protocol2.go), so your round function gets the same SquareRound and
// returns the same Actions either way.
//
// The lines travel over the bot's stdin and stdout, or over TCP when the
// engine starts the bot with three arguments, ADDRESS PORT TEAM (the bot
// connects to the engine). Either way the messages are the same, so one
// program serves both.
//
// Standard output belongs to the protocol: a stray fmt.Println is a
// malformed answer. Debug with log.Printf, which writes to standard error;
// the engine keeps it in the team's log.
package botio

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"slices"
)

// Hello is the engine's first message: the game, the arena and the rules.
type Hello struct {
	Protocol  int            `json:"protocol"`  // 1
	Protocols []int          `json:"protocols"` // the protocols the engine offers ([1, 2] in SquareBattle): Play chooses 2 then
	Game      string         `json:"game"`      // "squarebattle", "snake", "paint", ...
	Kind      string         `json:"kind"`      // "squares" or "calls": which round messages follow
	Seed      uint64         `json:"seed"`      // seed your random numbers from it to be repeatable
	Team      int            `json:"team"`      // your team, from 0
	Teams     int            `json:"teams"`
	Size      int            `json:"size"` // the arena is Size×Size
	Wrap      bool           `json:"wrap"` // whether its edges wrap
	Rounds    int            `json:"rounds"`
	Players   []string       `json:"players"`
	Class     string         `json:"class"` // squares: your squares' class id
	Classes   []string       `json:"classes"`
	Constants map[string]any `json:"constants"` // the game's rules and options: read them with Constant
	Columns   []string       `json:"columns"`   // calls: the score columns
	Time      struct {
		InitMS  int `json:"init_ms"`
		RoundMS int `json:"round_ms"`
		BankMS  int `json:"bank_ms"`
	} `json:"time"`
}

// Constant is the number the rules call name, or def when hello has no
// such number.
func (h Hello) Constant(name string, def float64) float64 {
	if v, ok := h.Constants[name].(float64); ok {
		return v
	}
	return def
}

// Ready is the bot's answer to hello.
type Ready struct {
	Type     string `json:"type"` // "ready"
	Name     string `json:"name"`
	Protocol int    `json:"protocol,omitempty"` // 2 to choose protocol 2; left out: 1
}

// Stats is one team's statistics, as Lua's stats() gives them.
type Stats struct {
	Player     string `json:"player"`
	Squares    int    `json:"squares"`
	Births     int    `json:"births"`
	Kills      int    `json:"kills"`
	Deaths     int    `json:"deaths"`
	Collisions int    `json:"collisions"`
	Timeouts   int    `json:"timeouts"`
	Errors     int    `json:"errors"`
}

// SquareRound is a SquareBattle round (kind "squares"): the team's squares
// that may act, and what happened to the team since its last round.
type SquareRound struct {
	Round   int      `json:"round"`
	Stats   []Stats  `json:"stats"` // every team's, in team order
	Born    []Born   `json:"born"`
	Died    []Died   `json:"died"`
	Squares []Square `json:"squares"` // ascending id
}

// Born is a square of the team created since the last round message.
type Born struct {
	ID     int    `json:"id"`
	Parent int    `json:"parent"`
	Class  string `json:"class"`
	Row    int    `json:"row"`
	Col    int    `json:"col"`
}

// Died is a square of the team that died since the last round message.
type Died struct {
	ID        int    `json:"id"`
	Class     string `json:"class"`
	Row       int    `json:"row"`
	Col       int    `json:"col"`
	Killer    int    `json:"killer"`
	Collision bool   `json:"collision"`
}

// Square is one square that may act this round.
type Square struct {
	ID    int    `json:"id"`
	Class string `json:"class"`
	Row   int    `json:"row"`
	Col   int    `json:"col"`
	// View holds the eight neighbours, index 0 north-west then clockwise:
	// Empty, Wall, or the team number of the square there.
	View [8]int `json:"view"`
}

// View values besides team numbers.
const (
	Empty = -1
	Wall  = -2 // beyond the edge of an arena that does not wrap
)

// Dirs names the directions in view order; an Action's Dir is one of them.
var Dirs = [8]string{"nw", "n", "ne", "e", "se", "s", "sw", "w"}

// Actions answers a SquareRound. Squares left out of Actions wait.
type Actions struct {
	Type    string   `json:"type"` // "actions"
	Round   int      `json:"round"`
	Actions []Action `json:"actions"`
}

// Action is one square's order.
type Action struct {
	ID     int    `json:"id"`
	Do     string `json:"do"`            // "wait", "move", "attack" or "replicate"
	Dir    string `json:"dir,omitempty"` // one of Dirs
	Child  string `json:"child,omitempty"`
	Become string `json:"become,omitempty"`
}

// CallRound is a rule mod's round (kind "calls"): what the rules ask of the
// team's units.
type CallRound struct {
	Round  int         `json:"round"`
	Batch  int         `json:"batch"`
	Values [][]float64 `json:"values"` // values[team][column]
	Forget []int       `json:"forget"` // units gone since the last message
	Calls  []Call      `json:"calls"`
}

// Call is one unit's call. View is the data a Lua player of the game gets,
// as JSON; each game's bot decodes it into a type of its own.
type Call struct {
	Unit  int             `json:"unit"`
	Class string          `json:"class"`
	View  json.RawMessage `json:"view"`
}

// Answers answers a CallRound: Answers[i] answers Calls[i].
type Answers struct {
	Type    string `json:"type"` // "actions"
	Round   int    `json:"round"`
	Batch   int    `json:"batch"`
	Answers []any  `json:"answers"`
}

// List is a Lua sequence inside a view. An empty Lua table may arrive as
// {} rather than [], and List reads both as empty.
type List[T any] []T

// UnmarshalJSON accepts an array, or {} for an empty table.
func (l *List[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "{}" {
		*l = nil
		return nil
	}
	return json.Unmarshal(b, (*[]T)(l))
}

// connect opens the connection to the engine: stdio without arguments,
// TCP to ADDRESS:PORT with ADDRESS PORT TEAM. The closer ends our side
// once the battle is over.
func connect(args []string) (io.Reader, io.Writer, io.Closer, error) {
	if len(args) >= 3 {
		c, err := net.Dial("tcp", net.JoinHostPort(args[0], args[1]))
		if err != nil {
			return nil, nil, nil, err
		}
		return c, c, c, nil
	}
	return os.Stdin, os.Stdout, os.Stdout, nil
}

// Play plays one battle over the transport os.Args asks for, and returns
// when it ends (nil at end or end of input).
//
// name is sent with ready. kind is the round messages the bot understands,
// "squares" or "calls", and R the matching type (SquareRound or
// CallRound). start is called with hello and returns the function that
// answers each round: its result is written as the actions line.
func Play[R any](name, kind string, start func(Hello) (func(R) any, error)) error {
	r, w, c, err := connect(os.Args[1:])
	if err != nil {
		return err
	}
	defer c.Close()
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64<<10), 16<<20) // the engine's rounds are far smaller
	out := bufio.NewWriter(w)
	send := func(msg any) error {
		b, err := json.Marshal(msg)
		if err != nil {
			return err
		}
		out.Write(append(b, '\n'))
		// Flush every message: an answer left in the buffer never reaches
		// the engine, which counts it late.
		return out.Flush()
	}

	var answer func(R) any
	var w2 *world // protocol 2: what the bot knows (protocol2.go)
	for in.Scan() {
		line := in.Bytes()
		var head struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(line, &head); err != nil {
			return fmt.Errorf("engine sent %.100q: %v", line, err)
		}
		switch {
		case answer == nil:
			var h Hello
			if err := json.Unmarshal(line, &h); err != nil || head.Type != "hello" {
				return fmt.Errorf("expected hello, got %.100q", line)
			}
			if h.Protocol != 1 || h.Kind != kind {
				return fmt.Errorf("this bot speaks protocol 1, kind %s; not %d, %s", kind, h.Protocol, h.Kind)
			}
			if answer, err = start(h); err != nil {
				return err
			}
			ready := Ready{Type: "ready", Name: name}
			if _, squares := any(answer).(func(SquareRound) any); squares && slices.Contains(h.Protocols, 2) {
				ready.Protocol, w2 = 2, newWorld(h)
			}
			if err := send(ready); err != nil {
				return err
			}
		case head.Type == "round" && w2 != nil:
			round, err := w2.apply(line)
			if err != nil {
				return fmt.Errorf("round %.100q: %v", line, err)
			}
			o, err := orders(round.Round, any(answer).(func(SquareRound) any)(round))
			if err != nil {
				return err
			}
			if err := send(o); err != nil {
				return err
			}
		case head.Type == "round":
			var round R
			if err := json.Unmarshal(line, &round); err != nil {
				return fmt.Errorf("round %.100q: %v", line, err)
			}
			if err := send(answer(round)); err != nil {
				return err
			}
		case head.Type == "end":
			var end struct {
				Winner int    `json:"winner"`
				Reason string `json:"reason"`
			}
			json.Unmarshal(line, &end)
			log.Printf("battle over: winner %d - %s", end.Winner, end.Reason)
			return nil
		}
		// Any other type is newer than this kit: ignore it.
	}
	return in.Err()
}
