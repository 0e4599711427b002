package main

import (
	"path/filepath"
	"strconv"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/bottest"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind"
)

// BenchmarkBotRound measures one round of a full 64×64 arena (4 teams of
// 1024 squares) played by four external bots, and by the same strategy
// in Lua in this process (lua): the difference is what the protocol costs
// a round. Two strategies: wait (every square waits: nothing changes) and
// shift (every square steps east every round: every square moves, none
// dies, as the rows shift round the wrapping arena). Compare the
// sub-benchmarks of one run with benchstat.
//
//   - stdio, tcp: the reference bot (refbot -wait or -shift) over protocol
//     1, every square's order written out, as programs over pipes or
//     loopback;
//   - stdio-p2, tcp-p2: the same bot over protocol 2 (waits left out);
//   - engine-p1, engine-p2: the engine alone: the bots are in this
//     process (bottest.Instant) and answer at once with the reference
//     bot's answer, written beforehand, so what is measured is the
//     engine's round with the protocol's encoding, exchange and decoding;
//   - engine-p2-all (wait): protocol 2 with every square's wait written
//     out.
//
// Each reports the engine process's CPU per round (cpu-ns/op: user and
// system time of this process, the bots' programs excluded) and, for
// bots, the bytes per unit per round each way (B/unit-in: engine to bot,
// B/unit-out: bot to engine, newlines included; the same every round).
func BenchmarkBotRound(b *testing.B) {
	for _, moves := range []string{"wait", "shift"} {
		b.Run(moves, func(b *testing.B) { benchBotRound(b, moves) })
	}
}

func benchBotRound(b *testing.B, moves string) {
	const size, teams = 64, 4
	m := &engine.Map{Size: size, Cells: make([]int, size*size)}
	for i := range m.Cells {
		m.Cells[i] = (i / size) * teams / size // four bands of 16 rows
	}
	o := engine.Options{Size: size, Wrap: true, Rounds: 1 << 30, ReplicateRounds: 1, Seed: 1, Workers: teams, Map: m}
	b.Run("lua", func(b *testing.B) {
		run := map[string]string{"wait": "function() end", "shift": "function() return MOVE, E end"}[moves]
		cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{
			"bench.lua": {Data: []byte(`return { name = "Bench", run = ` + run + ` }`)}}, Dir: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		p, _ := cat.Find("bench")
		bt, err := luabind.NewBattle(cat, []*luabind.Class{p, p, p, p}, o)
		if err != nil {
			b.Fatal(err)
		}
		defer bt.Close()
		stepRounds(b, bt.Battle, nil)
	})
	timing := bot.Timing{Init: 30 * time.Second, Round: time.Minute}
	// play greets a bot over each of conns and plays rounds.
	play := func(b *testing.B, conns []bot.Conn, count func() (in, out int64)) {
		o := o
		o.Classes = []string{"benchbot"}
		var ctrls []*bot.Controller
		for t, conn := range conns {
			g, err := bot.Handshake(conn, bot.Hello{Game: "squarebattle", Kind: bot.KindSquares, Team: t, Teams: teams, Size: size, Wrap: true}, timing)
			if err != nil {
				b.Fatal(err)
			}
			c := bot.NewControllerProtocol(conn, "benchbot", timing, g.Protocol, nil)
			ctrls = append(ctrls, c)
			o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "Bench"}, Controller: c, Outside: true})
		}
		defer func() {
			for _, c := range ctrls {
				c.Finish(bot.End{Winner: -1})
			}
		}()
		bt, err := engine.NewBattle(o)
		if err != nil {
			b.Fatal(err)
		}
		defer bt.Close()
		stepRounds(b, bt, count)
	}
	for _, proto := range []int{1, 2} {
		for _, transport := range []string{process.Stdio, process.TCP} {
			name := transport
			if proto == 2 {
				name += "-p2"
			}
			b.Run(name, func(b *testing.B) {
				path, err := refbot()
				if err != nil {
					b.Fatal(err)
				}
				var counted []*bottest.Counting
				var conns []bot.Conn
				for t := 0; t < teams; t++ {
					conn, err := process.Start(process.Options{Command: []string{path, "-" + moves, "-protocol", strconv.Itoa(proto)},
						Dir: filepath.Dir(path), Transport: transport, Team: t})
					if err != nil {
						b.Fatal(err)
					}
					c := &bottest.Counting{Conn: conn}
					counted, conns = append(counted, c), append(conns, c)
				}
				play(b, conns, func() (in, out int64) {
					for _, c := range counted {
						in, out = in+c.In.Load(), out+c.Out.Load()
					}
					return in, out
				})
			})
		}
	}
	n := size * size / teams
	cases := []struct {
		name         string
		proto, waits int
		ready        string
	}{
		{"engine-p1", 1, n, `{"type":"ready"}`},
		{"engine-p2", 2, 0, `{"type":"ready","protocol":2}`},
	}
	if moves == "wait" {
		cases = append(cases, struct {
			name         string
			proto, waits int
			ready        string
		}{"engine-p2-all", 2, n, `{"type":"ready","protocol":2}`})
	} else {
		cases[1].waits = n // every square moves: every order written
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var bots []*bottest.Instant
			var conns []bot.Conn
			for range teams {
				c := &bottest.Instant{Ready: []byte(tc.ready), Answer: benchAnswer(tc.proto, tc.waits, moves)}
				bots, conns = append(bots, c), append(conns, c)
			}
			play(b, conns, func() (in, out int64) {
				for _, c := range bots {
					in, out = in+c.In, out+c.Out
				}
				return in, out
			})
		})
	}
}

// benchAnswer is the answer of a bot whose squares all wait or all step
// east (moves), as the reference bot writes it in protocol proto: the
// order of each of the team's n squares written out (protocol 1, and
// protocol 2's moves), none when n is 0 (protocol 2's waits). A team's
// squares are n ids in a row (the benchmark's map: team t holds one band),
// the first read from the round message.
func benchAnswer(proto, n int, moves string) func(b, msg, round []byte) []byte {
	order1, order2 := `,"do":"wait"}`, `,"w"`
	if moves == "shift" {
		order1, order2 = `,"do":"move","dir":"e"}`, `,"me"`
	}
	var tail []byte // the answer after the round number, built once
	return func(b, msg, round []byte) []byte {
		if tail == nil {
			first := firstID(msg)
			if proto == 1 {
				tail = append(tail, `,"actions":[`...)
				for i := range n {
					if i > 0 {
						tail = append(tail, ',')
					}
					tail = append(tail, `{"id":`...)
					tail = strconv.AppendInt(tail, int64(first+i), 10)
					tail = append(tail, order1...)
				}
			} else {
				tail = append(tail, `,"orders":[`...)
				for i := range n {
					if i > 0 {
						tail = append(tail, ',')
					}
					tail = strconv.AppendInt(tail, int64(first+i), 10)
					tail = append(tail, order2...)
				}
			}
			tail = append(tail, "]}"...)
		}
		b = append(b, `{"type":"actions","round":`...)
		b = append(b, round...)
		return append(b, tail...)
	}
}

// firstID is the first square id in a round message: the first "id" of
// protocol 1's squares, the first of protocol 2's "at".
func firstID(msg []byte) int {
	for _, key := range []string{`"squares":[{"id":`, `"at":[`} {
		if i := bytesIndex(msg, key); i >= 0 {
			v := 0
			for _, c := range msg[i+len(key):] {
				if c < '0' || c > '9' {
					break
				}
				v = v*10 + int(c-'0')
			}
			return v
		}
	}
	return 0
}

func bytesIndex(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// stepRounds plays b.N rounds and checks that nobody lost a turn. It
// reports the process's CPU per round and, with count (the bytes sent to
// the bots and received so far), the bytes per unit per round each way.
func stepRounds(b *testing.B, bt *engine.Battle, count func() (in, out int64)) {
	bt.Step() // warm up: the first round loads the scripts (and protocol 2's is full)
	var in0, out0 int64
	if count != nil {
		in0, out0 = count()
	}
	cpu := selfCPU()
	b.ResetTimer()
	for range b.N {
		bt.Step()
	}
	b.StopTimer()
	b.ReportMetric(float64(selfCPU()-cpu)/float64(b.N), "cpu-ns/op")
	for t := range 4 {
		if s := bt.Stats(t); s.Squares != 1024 || s.Timeouts+s.Errors != 0 {
			b.Fatalf("team %d: %+v", t, s)
		}
	}
	if count != nil {
		in, out := count()
		units := float64(b.N * 4 * 1024)
		b.ReportMetric(float64(in-in0)/units, "B/unit-in")
		b.ReportMetric(float64(out-out0)/units, "B/unit-out")
	}
}
