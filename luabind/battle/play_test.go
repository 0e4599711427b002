package battle_test

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/scripts"
)

func catalog(t *testing.T) *luabind.Catalog {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: scripts.FS, Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func teams(t *testing.T, cat *luabind.Catalog, names ...string) []battle.Team {
	t.Helper()
	specs, broken := battle.ScriptBots(scripts.FS, "scripts")
	out, err := battle.PickTeams(cat.Players(), cat.Find, specs, broken, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPlay: a SquareBattle and a rule mod battle set up from names and a
// configuration play the same on every call with the same seed, whatever
// the workers, and the replay written as they play holds the same end.
func TestPlay(t *testing.T) {
	cfg := config.Default()
	cfg.Arena.Size, cfg.Rules.Rounds = 16, 120
	cat := catalog(t)
	sub, err := fs.Sub(scripts.FS, "paint")
	if err != nil {
		t.Fatal(err)
	}
	paint, err := luabind.LoadGame(sub, "scripts/paint", battle.Limits(cfg))
	if err != nil {
		t.Fatal(err)
	}
	paintTeams, err := battle.PickTeams(paint.Catalog.Players(), paint.Catalog.Find, nil, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		setup func(workers int) battle.Setup
	}{
		{"squarebattle", func(workers int) battle.Setup {
			o := battle.Options(cfg)
			o.Seed, o.Workers = 7, workers
			return battle.Setup{Config: cfg, Catalog: cat, Teams: teams(t, cat, "explorer", "wanderer", "borg"), Options: o}
		}},
		{"paint", func(workers int) battle.Setup {
			return battle.Setup{Config: cfg, Catalog: paint.Catalog, Teams: paintTeams, Game: paint, GameName: "paint",
				ModOptions: modOptions(cfg, workers)}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var boards [][][]int
			for i, workers := range []int{1, 3} {
				s := c.setup(workers)
				s.Record = filepath.Join(t.TempDir(), "b.sbr")
				res, err := battle.Play(s)
				if err != nil {
					t.Fatal(err)
				}
				if res.RulesErr != nil {
					t.Fatalf("rules failed: %v", res.RulesErr)
				}
				if res.Final.Round == 0 {
					t.Fatal("no round played")
				}
				boards = append(boards, res.Final.Board())
				r, err := replay.Open(s.Record)
				if err != nil {
					t.Fatal(err)
				}
				if r.Damage != nil || r.Result == nil {
					t.Fatalf("replay %d: damage %v, result %v", i, r.Damage, r.Result)
				}
				if r.Result.Round != res.Final.Round || r.Header.Seed != res.Final.Seed {
					t.Errorf("replay ends in round %d seed %d, the battle in %d seed %d", r.Result.Round, r.Header.Seed, res.Final.Round, res.Final.Seed)
				}
			}
			if !reflect.DeepEqual(boards[0], boards[1]) {
				t.Error("the same seed gave different boards on 1 and 3 workers")
			}
		})
	}
}

func modOptions(cfg config.Config, workers int) (o engine.ModOptions) {
	o.Size, o.Wrap, o.Rounds, o.Seed, o.Workers = 40, cfg.Arena.Wrap, 40, 11, workers
	return o
}

// TestBadInput: what the user must fix wraps ErrBadInput, and says why.
func TestBadInput(t *testing.T) {
	cfg := config.Default()
	cat := catalog(t)
	cases := []struct {
		name string
		err  func() error
	}{
		{"unknown player", func() error {
			_, err := battle.PickTeams(cat.Players(), cat.Find, nil, nil, []string{"nobody-at-all"}, nil)
			return err
		}},
		{"game that is not a folder name", func() error { _, _, err := battle.GameIn(scripts.FS, "scripts", "../x"); return err }},
		{"game that is not there", func() error { _, _, err := battle.GameIn(scripts.FS, "scripts", "chess"); return err }},
		{"arena too small for the teams", func() error {
			o := battle.Options(cfg)
			o.Size, o.Seed = 2, 1
			_, err := battle.Play(battle.Setup{Config: cfg, Catalog: cat, Teams: teams(t, cat, "explorer", "wanderer", "borg", "pinwheel", "expand"), Options: o})
			return err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			if !errors.Is(err, battle.ErrBadInput) {
				t.Fatalf("err = %v, want one wrapping ErrBadInput", err)
			}
			if err.Error() == "" || bytes.Contains([]byte(err.Error()), []byte("bad input")) {
				t.Errorf("message %q should say what is wrong", err)
			}
		})
	}
	if battle.Bad(nil) != nil {
		t.Error("Bad(nil) is not nil")
	}
}
