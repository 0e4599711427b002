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
//     out;
//   - paired: lua, engine-p1, engine-p2, stdio and stdio-p2 played in
//     turns, a round of each, reporting each one's engine CPU and wall
//     time per round over the Lua round's (X-cpu/lua-cpu, X/lua): on a
//     shared machine, the ratios of one run.
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

// botBench builds the benchmark's battles of one strategy.
type botBench struct {
	moves string
	o     engine.Options
}

const benchSize, benchTeams = 64, 4

func newBotBench(moves string) botBench {
	m := &engine.Map{Size: benchSize, Cells: make([]int, benchSize*benchSize)}
	for i := range m.Cells {
		m.Cells[i] = (i / benchSize) * benchTeams / benchSize // four bands of 16 rows
	}
	return botBench{moves: moves, o: engine.Options{Size: benchSize, Wrap: true, Rounds: 1 << 30, ReplicateRounds: 1,
		Seed: 1, Workers: benchTeams, Map: m}}
}

// lua is the battle of the strategy in Lua, in this process.
func (bb botBench) lua(b *testing.B) (*engine.Battle, func()) {
	run := map[string]string{"wait": "function() end", "shift": "function() return MOVE, E end"}[bb.moves]
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{
		"bench.lua": {Data: []byte(`return { name = "Bench", run = ` + run + ` }`)}}, Dir: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := cat.Find("bench")
	bt, err := luabind.NewBattle(cat, []*luabind.Class{p, p, p, p}, bb.o)
	if err != nil {
		b.Fatal(err)
	}
	return bt.Battle, bt.Close
}

// bots is the battle of four bots over conns.
func (bb botBench) bots(b *testing.B, conns []bot.Conn) (*engine.Battle, func()) {
	timing := bot.Timing{Init: 30 * time.Second, Round: time.Minute}
	o := bb.o
	o.Classes = []string{"benchbot"}
	var ctrls []*bot.Controller
	for t, conn := range conns {
		g, err := bot.Handshake(conn, bot.Hello{Game: "squarebattle", Kind: bot.KindSquares, Team: t, Teams: benchTeams,
			Size: benchSize, Wrap: true}, timing)
		if err != nil {
			b.Fatal(err)
		}
		c := bot.NewControllerProtocol(conn, "benchbot", timing, g.Protocol, nil)
		ctrls = append(ctrls, c)
		o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "Bench"}, Controller: c, Outside: true})
	}
	bt, err := engine.NewBattle(o)
	if err != nil {
		b.Fatal(err)
	}
	return bt, func() {
		for _, c := range ctrls {
			c.Finish(bot.End{Winner: -1})
		}
		bt.Close()
	}
}

// programs starts the reference bot four times (refbot -wait or
// -shift) speaking protocol proto over transport.
func (bb botBench) programs(b *testing.B, proto int, transport string) ([]bot.Conn, func() (in, out int64)) {
	path, err := refbot()
	if err != nil {
		b.Fatal(err)
	}
	var counted []*bottest.Counting
	var conns []bot.Conn
	for t := range benchTeams {
		conn, err := process.Start(process.Options{Command: []string{path, "-" + bb.moves, "-protocol", strconv.Itoa(proto)},
			Dir: filepath.Dir(path), Transport: transport, Team: t})
		if err != nil {
			b.Fatal(err)
		}
		c := &bottest.Counting{Conn: conn}
		counted, conns = append(counted, c), append(conns, c)
	}
	return conns, func() (in, out int64) {
		for _, c := range counted {
			in, out = in+c.In.Load(), out+c.Out.Load()
		}
		return in, out
	}
}

// instant is four bots in this process (bottest.Instant) answering at
// once with what the reference bot answers in protocol proto, every
// square's order written out (waits: as the bot writes them only when
// all is set).
func (bb botBench) instant(proto int, all bool) ([]bot.Conn, func() (in, out int64)) {
	ready := `{"type":"ready"}`
	if proto == 2 {
		ready = `{"type":"ready","protocol":2}`
	}
	n := benchSize * benchSize / benchTeams
	if proto == 2 && bb.moves == "wait" && !all {
		n = 0 // protocol 2 leaves waits out
	}
	var bots []*bottest.Instant
	var conns []bot.Conn
	for range benchTeams {
		c := &bottest.Instant{Ready: []byte(ready), Answer: benchAnswer(proto, n, bb.moves)}
		bots, conns = append(bots, c), append(conns, c)
	}
	return conns, func() (in, out int64) {
		for _, c := range bots {
			in, out = in+c.In, out+c.Out
		}
		return in, out
	}
}

func benchBotRound(b *testing.B, moves string) {
	bb := newBotBench(moves)
	b.Run("lua", func(b *testing.B) {
		bt, done := bb.lua(b)
		defer done()
		stepRounds(b, bt, nil)
	})
	for _, proto := range []int{1, 2} {
		for _, transport := range []string{process.Stdio, process.TCP} {
			name := transport
			if proto == 2 {
				name += "-p2"
			}
			b.Run(name, func(b *testing.B) {
				conns, count := bb.programs(b, proto, transport)
				bt, done := bb.bots(b, conns)
				defer done()
				stepRounds(b, bt, count)
			})
		}
	}
	for _, tc := range []struct {
		name  string
		proto int
		all   bool
	}{{"engine-p1", 1, false}, {"engine-p2", 2, false}, {"engine-p2-all", 2, true}} {
		if tc.all && moves != "wait" {
			continue // every order is written already
		}
		b.Run(tc.name, func(b *testing.B) {
			conns, count := bb.instant(tc.proto, tc.all)
			bt, done := bb.bots(b, conns)
			defer done()
			stepRounds(b, bt, count)
		})
	}
	// paired plays the battles in turns, a round of each, and reports
	// each one's engine CPU and wall time per round over the Lua round's:
	// on a shared machine the ratios of one run are what to compare.
	b.Run("paired", func(b *testing.B) {
		names := []string{"lua", "engine-p1", "engine-p2", "stdio", "stdio-p2"}
		var battles []*engine.Battle
		add := func(bt *engine.Battle, done func()) {
			b.Cleanup(done)
			bt.Step() // warm up
			battles = append(battles, bt)
		}
		add(bb.lua(b))
		for _, proto := range []int{1, 2} {
			conns, _ := bb.instant(proto, false)
			add(bb.bots(b, conns))
		}
		for _, proto := range []int{1, 2} {
			conns, _ := bb.programs(b, proto, process.Stdio)
			add(bb.bots(b, conns))
		}
		cpu, wall := stepInTurns(b, battles)
		for i := 1; i < len(battles); i++ {
			b.ReportMetric(float64(cpu[i])/float64(cpu[0]), names[i]+"-cpu/lua-cpu")
			b.ReportMetric(float64(wall[i])/float64(wall[0]), names[i]+"/lua")
		}
		b.ReportMetric(float64(cpu[0])/float64(b.N), "lua-cpu-ns/round")
		b.ReportMetric(float64(cpu[2])/float64(b.N), "engine-p2-cpu-ns/round")
		checkTurns(b, battles, names)
	})
}

// stepInTurns plays b.N rounds of each battle in turns, a round of each,
// and returns the engine process's CPU and the wall time each took.
func stepInTurns(b *testing.B, battles []*engine.Battle) (cpu, wall []time.Duration) {
	cpu = make([]time.Duration, len(battles))
	wall = make([]time.Duration, len(battles))
	b.ResetTimer()
	for range b.N {
		for i, bt := range battles {
			c, w := selfCPU(), time.Now()
			bt.Step()
			wall[i] += time.Since(w)
			cpu[i] += selfCPU() - c
		}
	}
	b.StopTimer()
	return cpu, wall
}

// checkTurns checks that no team of the benchmark's battles lost a turn
// or a square.
func checkTurns(b *testing.B, battles []*engine.Battle, names []string) {
	for i, bt := range battles {
		for t := range benchTeams {
			if s := bt.Stats(t); s.Squares != 1024 || s.Timeouts+s.Errors != 0 {
				b.Fatalf("%s: team %d: %+v", names[i], t, s)
			}
		}
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
