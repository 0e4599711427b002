package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// outsider is a team decided outside the battle, as a bot or a person
// would: at random, from a source no re-run shares, now and then badly.
// It is a luabind.OutsideSeat, as the program's bot and human seats are.
type outsider struct {
	rng *rand.Rand
}

func (o *outsider) Turn(t *engine.Turn) {
	for i := range t.Intents {
		in := engine.Intent{Action: engine.Action(o.rng.IntN(3)), Dir: engine.Direction(o.rng.IntN(8)), Child: 0, Become: engine.NoClass}
		switch o.rng.IntN(20) {
		case 0:
			in.Action = engine.Replicate
		case 1:
			in.Dir = 99 // the engine counts it an error
		}
		t.Intents[i] = in
	}
	if o.rng.IntN(10) == 0 {
		t.Report.Errors++
		t.Report.Problems = append(t.Report.Problems, engine.Problem{Class: engine.NoClass, Square: -1, Kind: engine.FaultError, Message: "bot: a malformed answer line"})
	}
}

func (o *outsider) Settle(*engine.Settlement) {}

func (o *outsider) Call(t *engine.ModTurn) {
	for i := range t.Answers {
		var text []byte
		switch o.rng.IntN(6) {
		case 0:
			t.Answers[i] = engine.Answer{Fault: engine.FaultTimeout}
			continue
		case 1:
			text = []byte(`{"1": "up", "x": [1, 2.5, null]}`)
		default:
			dirs := []string{`"up"`, `"down"`, `"left"`, `"right"`}
			var orders []string
			for range 1 + o.rng.IntN(4) {
				orders = append(orders, dirs[o.rng.IntN(4)])
			}
			text = []byte("[" + strings.Join(orders, ", ") + "]")
		}
		v, err := luabind.PlainFromJSON(text)
		if err != nil {
			panic(err)
		}
		t.Answers[i] = engine.Answer{Value: v}
	}
}

func (o *outsider) Outside() string                       { return engine.OutsideBot }
func (o *outsider) Log() []string                         { return nil }
func (o *outsider) Printed(since int64) ([]string, int64) { return nil, since }
func (o *outsider) Close()                                {}

// outsideAt seats team index as an outsider and the others in this
// process.
func outsideAt(index int, seed uint64) luabind.Seater {
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index == index {
			return &outsider{rng: rand.New(rand.NewPCG(seed, 77))}, nil
		}
		return luabind.InProcess(o)
	}
}

// TestVerifyOutsideTeams: a SquareBattle battle and a paint battle, each
// with a team decided outside the battle, record its decisions, and
// replay --verify says identical, the decisions taken as recorded and the
// other teams played again; a replay that lost some of them differs at
// their round.
func TestVerifyOutsideTeams(t *testing.T) {
	cfg := config.Default()
	cfg.Scripts = diskCopy(t)
	t.Cleanup(closePools)
	files := map[string]string{"squarebattle": recordOutsideBattle(t, cfg), "paint": recordOutsidePaint(t, cfg)}
	for name, file := range files {
		t.Run(name, func(t *testing.T) {
			rep, err := replay.Open(file)
			if err != nil || rep.Damage != nil {
				t.Fatalf("%v %v", err, rep.Damage)
			}
			if rep.Header.Players[1].Outside != engine.OutsideBot || rep.Header.Players[0].Outside != "" {
				t.Fatalf("header players %+v: want team 1 decided by a bot", rep.Header.Players)
			}
			if len(recordedAnswers(rep)) == 0 {
				t.Fatal("no decisions recorded")
			}
			var out bytes.Buffer
			for _, mode := range []string{config.IsolationNone, config.IsolationProcess} {
				walled := cfg
				walled.Isolation.Mode = mode
				out.Reset()
				if err := verifyReplay(walled, file, &out); err != nil || !strings.HasPrefix(out.String(), "identical: ") ||
					!strings.Contains(out.String(), "of outside team 1 taken as recorded") {
					t.Fatalf("verify, isolation %s: %v, %q", mode, err, out.String())
				}
				t.Logf("isolation %s: %s", mode, strings.TrimSpace(out.String()))
			}
			// Without a round's decisions (the third round that has
			// some), the re-run lets team 1 wait there.
			cut, round := filepath.Join(t.TempDir(), "cut.sbr"), 0
			editReplay(t, file, cut, func(lines [][]byte) [][]byte {
				for r, seen := 1, 0; r < len(lines) && round == 0; r++ {
					if i := bytes.Index(lines[r], []byte(`,"a":[`)); i > 0 {
						if seen++; seen == 3 {
							lines[r], round = append(lines[r][:i:i], "}\n"...), r
						}
					}
				}
				return lines
			})
			out.Reset()
			err = verifyReplay(cfg, cut, &out)
			if want := fmt.Sprintf("round %d differs: outside teams' decisions differ", round); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("verify of the cut replay: %v, %q; want %q", err, out.String(), want)
			}
		})
	}
}

// recordOutsideBattle records a SquareBattle battle of shipped players,
// team 1 decided outside, and returns the file.
func recordOutsideBattle(t *testing.T, cfg config.Config) string {
	t.Helper()
	fsys, dir, err := scriptsFS(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fsys, Dir: dir, Limits: battle.Limits(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	var players []*luabind.Class
	for _, name := range []string{"pinwheel", "wanderer", "borg"} {
		p, err := cat.Find(name)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	o := engine.Options{Size: 24, Wrap: cfg.Arena.Wrap, Rounds: 150, ReplicateRounds: 3, Seed: 4, Workers: 2}
	b, err := luabind.NewSeatedBattle(cat, players, o, outsideAt(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	file := filepath.Join(t.TempDir(), "outside.sbr")
	f, err := replay.Create(file, battle.Header(cfg, cat, b), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := battle.PlayRecorded(b, f.Writer); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return file
}

// recordOutsidePaint records a paint battle, team 1 decided outside.
func recordOutsidePaint(t *testing.T, cfg config.Config) string {
	t.Helper()
	g := loadTestGame(t, cfg, "paint")
	greedy, _ := g.Find("greedy")
	random, _ := g.Find("random")
	players := []*luabind.Class{greedy, random, greedy}
	o := engine.ModOptions{Size: 40, Rounds: 60, Seed: 8, Workers: 2, Codec: luabind.PlainJSON}
	b, err := luabind.NewWalledModBattle(g, players, o, cfg.Limits.RulesInstructions, outsideAt(1, 2), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	file := filepath.Join(t.TempDir(), "paint.sbr")
	f, err := replay.Create(file, battle.ModHeader(cfg, "paint", g, players, o, nil, nil), b.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := battle.Record(b, engine.NewModRecorder(b.ModBattle), f.Writer, b.Err); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return file
}

// loadTestGame loads a game of cfg's scripts folder.
func loadTestGame(t *testing.T, cfg config.Config, name string) *luabind.Game {
	t.Helper()
	sub, dir, err := gameFS(cfg, name)
	if err != nil {
		t.Fatal(err)
	}
	g, err := luabind.LoadGame(sub, dir, battle.Limits(cfg))
	if err != nil {
		t.Fatal(err)
	}
	return g
}
