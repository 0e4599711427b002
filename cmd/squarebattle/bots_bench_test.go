package main

import (
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/luabind"
)

// BenchmarkBotRound measures one round of a full 64×64 arena (4 teams of
// 1024 squares, every square waiting) played by four external bots over
// stdio and over TCP, against the same strategy in Lua in this process:
// the difference is what the protocol costs a round (writing each team's
// round message, the bots reading it and answering, reading the answers).
// Compare the sub-benchmarks of one run with benchstat.
func BenchmarkBotRound(b *testing.B) {
	const size, teams = 64, 4
	m := &engine.Map{Size: size, Cells: make([]int, size*size)}
	for i := range m.Cells {
		m.Cells[i] = (i / size) * teams / size // four bands of 16 rows
	}
	o := engine.Options{Size: size, Wrap: true, Rounds: 1 << 30, ReplicateRounds: 1, Seed: 1, Workers: teams, Map: m}
	b.Run("lua", func(b *testing.B) {
		cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{
			"wait.lua": {Data: []byte(`return { name = "Wait", run = function() end }`)}}, Dir: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		p, _ := cat.Find("wait")
		bt, err := luabind.NewBattle(cat, []*luabind.Class{p, p, p, p}, o)
		if err != nil {
			b.Fatal(err)
		}
		defer bt.Close()
		stepRounds(b, bt.Battle)
	})
	for _, transport := range []string{process.Stdio, process.TCP} {
		b.Run(transport, func(b *testing.B) {
			path, err := refbot()
			if err != nil {
				b.Fatal(err)
			}
			timing := bot.Timing{Init: 30 * time.Second, Round: time.Minute}
			o := o
			o.Classes = []string{"waitbot"}
			var ctrls []*bot.Controller
			for t := 0; t < teams; t++ {
				conn, err := process.Start(process.Options{Command: []string{path, "-wait"}, Dir: filepath.Dir(path), Transport: transport, Team: t})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bot.Greet(conn, bot.Hello{Game: "squarebattle", Kind: bot.KindSquares, Team: t, Teams: teams, Size: size}, timing); err != nil {
					b.Fatal(err)
				}
				c := bot.NewController(conn, "waitbot", timing, nil)
				ctrls = append(ctrls, c)
				o.Teams = append(o.Teams, engine.TeamSetup{Player: engine.Player{Name: "Wait"}, Controller: c, Outside: true})
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
			stepRounds(b, bt)
		})
	}
}

// stepRounds plays b.N rounds and checks that nobody lost a turn.
func stepRounds(b *testing.B, bt *engine.Battle) {
	bt.Step() // warm up: the first round loads the scripts
	b.ResetTimer()
	for range b.N {
		bt.Step()
	}
	b.StopTimer()
	for t := range 4 {
		if s := bt.Stats(t); s.Squares != 1024 || s.Timeouts+s.Errors != 0 {
			b.Fatalf("team %d: %+v", t, s)
		}
	}
}
