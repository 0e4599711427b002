// Command refbot is the Go reference bot of the bot protocol
// (docs/bots.md): it plays SquareBattle, paint, snake and orbs sensibly,
// and, with -fault, breaks the protocol in one chosen way at one chosen
// round so that the engine's handling of every fault can be tested against
// a real program.
//
//	refbot [-fault KIND] [-at ROUND] [-name NAME] [-protocol 2] [ADDRESS PORT TEAM]
//
// With -protocol 2 it chooses protocol 2 when hello offers it (a
// SquareBattle battle; docs/bots.md, "Protocol 2"), keeps what the round
// messages tell it of its squares and the arena, and rebuilds each
// square's view from that; otherwise it speaks protocol 1.
//
// With ADDRESS PORT TEAM it connects over TCP instead of using its
// standard input and output.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

var (
	fault = flag.String("fault", "", "break the protocol: noready, badready, late, malformed, huge, nonewline, close, crash, exit, noread, badid, badorder, toomany, stale, flood, resync (protocol 2: ask for a full state)")
	proto = flag.Int("protocol", 1, "the protocol to choose when hello offers it: 1 or 2")
	at    = flag.Int("at", 3, "the round the fault happens in")
	name  = flag.String("name", "Ref Bot", "the name given in ready")
	wait  = flag.Bool("wait", false, "SquareBattle: order every square to wait (the benchmarks' strategy)")
	shift = flag.Bool("shift", false, "SquareBattle: order every square to move east (the benchmarks' other strategy)")
	fired bool // the fault happened
	// resynced: the bot asked for a full state; the next round message
	// must be full (else it exits with an error, failing the test).
	resynced bool
)

type hello struct {
	Protocols []int              `json:"protocols"`
	Game      string             `json:"game"`
	Kind      string             `json:"kind"`
	Seed      uint64             `json:"seed"`
	Team      int                `json:"team"`
	Teams     int                `json:"teams"`
	Size      int                `json:"size"`
	Wrap      bool               `json:"wrap"`
	Class     string             `json:"class"`
	Constants map[string]float64 `json:"constants"`
	Time      struct {
		RoundMS int `json:"round_ms"`
		BankMS  int `json:"bank_ms"`
	} `json:"time"`
}

type message struct {
	Type    string          `json:"type"`
	Round   int             `json:"round"`
	Batch   int             `json:"batch"`
	Squares []square        `json:"squares"`
	Calls   []call          `json:"calls"`
	Stats   json.RawMessage `json:"stats"`
}

type square struct {
	ID   int    `json:"id"`
	Row  int    `json:"row"`
	Col  int    `json:"col"`
	View [8]int `json:"view"`
}

type call struct {
	Unit int             `json:"unit"`
	View json.RawMessage `json:"view"`
}

func main() {
	flag.Parse()
	var in io.Reader = os.Stdin
	var out io.Writer = os.Stdout
	if flag.NArg() == 3 {
		c, err := net.Dial("tcp", net.JoinHostPort(flag.Arg(0), flag.Arg(1)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "refbot:", err)
			os.Exit(1)
		}
		in, out = c, c
	}
	r := bufio.NewReaderSize(in, 1<<16)
	w := bufio.NewWriter(out)
	var h hello
	var rng *rand.Rand
	var w2 *world // protocol 2: what the bot knows
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return // end of input: the battle is over
		}
		var m message
		var m2 round2
		if w2 != nil {
			err = json.Unmarshal(line, &m2)
			m.Type, m.Round = m2.Type, m2.Round
		} else {
			err = json.Unmarshal(line, &m)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "refbot: bad message:", err)
			continue
		}
		switch m.Type {
		case "hello":
			json.Unmarshal(line, &h)
			rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Team)))
			fmt.Fprintf(os.Stderr, "refbot: team %d of %s\n", h.Team, h.Game)
			switch *fault {
			case "noready":
				time.Sleep(time.Hour)
			case "badready":
				send(w, map[string]any{"type": "actions", "round": 0})
				continue
			}
			if *proto == 2 && slices.Contains(h.Protocols, 2) {
				w2 = newWorld(&h)
				send(w, map[string]any{"type": "ready", "name": *name, "protocol": 2})
				continue
			}
			send(w, map[string]any{"type": "ready", "name": *name})
		case "round":
			if w2 != nil {
				w2.apply(&m2)
				m.Squares = w2.squares()
			}
			if m.Round >= *at && misbehave(w, r, &h, &m, w2 != nil) {
				continue
			}
			if (*wait || *shift) && h.Kind == "squares" && *fault == "" {
				uniform(w, &m, w2 != nil)
				continue
			}
			a := answer(&h, &m, rng)
			if w2 != nil {
				a = orders(a)
			}
			send(w, a)
		case "end":
			return
		}
	}
}

// uniform answers the benchmarks' strategies (-wait, -shift) the way a
// bot that cares for speed writes them, the same way in both protocols:
// the line written directly, every square's order in protocol 1 (as a
// simple bot does), moves only in protocol 2 (waits are left out).
func uniform(w *bufio.Writer, m *message, p2 bool) {
	b := fmt.Appendf(nil, `{"type":"actions","round":%d,`, m.Round)
	if p2 {
		b = append(b, `"orders":[`...)
		if *shift {
			for i, s := range m.Squares {
				if i > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(s.ID), 10)
				b = append(b, `,"me"`...)
			}
		}
	} else {
		b = append(b, `"actions":[`...)
		order := `,"do":"wait"}`
		if *shift {
			order = `,"do":"move","dir":"e"}`
		}
		for i, s := range m.Squares {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = strconv.AppendInt(b, int64(s.ID), 10)
			b = append(b, order...)
		}
	}
	w.Write(append(b, "]}\n"...))
	w.Flush()
}

func send(w *bufio.Writer, v any) {
	b, _ := json.Marshal(v)
	w.Write(b)
	w.WriteByte('\n')
	w.Flush()
}

// misbehave breaks the protocol as -fault says, and reports whether it
// took the place of the round's answer.
func misbehave(w *bufio.Writer, r *bufio.Reader, h *hello, m *message, p2 bool) bool {
	once := !fired // the one-off faults happen in the first round from -at on
	fired = true
	switch *fault {
	case "late":
		if once {
			time.Sleep(time.Duration(h.Time.RoundMS+h.Time.BankMS+100) * time.Millisecond)
		}
	case "malformed":
		if once {
			w.WriteString("this is not JSON\n")
			w.Flush()
			return true
		}
	case "huge":
		w.WriteString(`{"type":"actions","round":` + fmt.Sprint(m.Round) + `,"pad":"`)
		w.WriteString(strings.Repeat("x", 1<<20))
		w.WriteString("\"}\n")
		w.Flush()
		return true
	case "nonewline":
		w.WriteString(`{"type":"actions","round":` + fmt.Sprint(m.Round) + `,"actions":[]}`)
		w.Flush()
		time.Sleep(time.Hour)
	case "close":
		os.Stdout.Close()
		time.Sleep(time.Hour)
	case "crash":
		panic("refbot: crashing as asked")
	case "exit":
		os.Exit(0)
	case "noread":
		time.Sleep(time.Hour)
	case "badid":
		if once && p2 {
			send(w, map[string]any{"type": "actions", "round": m.Round, "orders": []any{1 << 30, "w"}})
			return true
		}
		if once {
			send(w, map[string]any{"type": "actions", "round": m.Round, "actions": []any{map[string]any{"id": 1 << 30, "do": "wait"}}})
			return true
		}
	case "badorder":
		if once && len(m.Squares) > 0 && p2 {
			send(w, map[string]any{"type": "actions", "round": m.Round, "orders": []any{m.Squares[0].ID, "mnorth"}})
			return true
		}
		if once && len(m.Squares) > 0 {
			send(w, map[string]any{"type": "actions", "round": m.Round, "actions": []any{map[string]any{"id": m.Squares[0].ID, "do": "move", "dir": "north"}}})
			return true
		}
	case "stale":
		if once && p2 {
			send(w, map[string]any{"type": "actions", "round": m.Round - 1, "orders": []any{}})
		} else if once { // an answer to an earlier round first, then the right one
			send(w, map[string]any{"type": "actions", "round": m.Round - 1, "actions": []any{}})
		}
	case "resync":
		if once { // forget everything, ask for it all again, wait this round
			resynced = true
			send(w, map[string]any{"type": "resync"})
			send(w, map[string]any{"type": "actions", "round": m.Round, "orders": []any{}})
			return true
		}
	case "toomany":
		if once {
			send(w, map[string]any{"type": "actions", "round": m.Round, "batch": m.Batch, "answers": make([]any, len(m.Calls)+1)})
			return true
		}
	case "flood":
		for i := 0; i < 1<<16; i++ {
			fmt.Fprintf(os.Stderr, "refbot: flooding standard error, line %d\n", i)
		}
	}
	return false
}

func answer(h *hello, m *message, rng *rand.Rand) map[string]any {
	switch h.Kind {
	case "squares":
		if *shift {
			acts := make([]any, len(m.Squares))
			for i, s := range m.Squares {
				acts[i] = map[string]any{"id": s.ID, "do": "move", "dir": "e"}
			}
			return map[string]any{"type": "actions", "round": m.Round, "actions": acts}
		}
		if *wait {
			acts := make([]any, len(m.Squares))
			for i, s := range m.Squares {
				acts[i] = map[string]any{"id": s.ID, "do": "wait"}
			}
			if *proto == 2 {
				acts = acts[:0] // protocol 2 leaves waiting squares out (so could protocol 1)
			}
			return map[string]any{"type": "actions", "round": m.Round, "actions": acts}
		}
		return map[string]any{"type": "actions", "round": m.Round, "actions": squares(h, m, rng)}
	}
	answers := make([]any, len(m.Calls))
	for i, c := range m.Calls {
		switch h.Game {
		case "paint":
			answers[i] = paint(h, c.View, rng)
		case "snake":
			answers[i] = snake(c.View)
		case "orbs":
			answers[i] = orbs(c.View, rng)
		case "echo": // the protocol tests' game: answer what the view wants
			var v struct {
				Want any `json:"want"`
			}
			json.Unmarshal(c.View, &v)
			answers[i] = v.Want
		}
	}
	return map[string]any{"type": "actions", "round": m.Round, "batch": m.Batch, "answers": answers}
}
