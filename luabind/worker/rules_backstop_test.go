package worker

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// hostileRules is a rule mod whose turns calls hook (a test hook the
// sandbox never offers, or nothing) in round 3.
func hostileRules(t testing.TB, hook string) *luabind.Game {
	t.Helper()
	rules := fmt.Sprintf(`local asked = -1
return {
  name = "Hostile", columns = {"score"},
  turns = function(game)
    if asked == game.round() then return nil end
    asked = game.round()
    if game.round() == 3 then %s end
    return {{team = 0, view = {round = game.round()}}, {team = 1, view = {}}}
  end,
  resolve = function(game, calls, answers)
    for i = 1, #calls do
      game.set(game.round() %% 4, i - 1, calls[i].team)
      game.score(calls[i].team, "score", game.round())
    end
  end,
}`, hook)
	player := `return { name = "P", run = function(view) return 1 end }`
	g, err := luabind.LoadGame(fstest.MapFS{"rules.lua": {Data: []byte(rules)}, "p.lua": {Data: []byte(player)}}, "scripts/hostile", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRulesBackstop fields, behind the wall, rules.lua files that call the
// test hooks. Each stops only its own battle, at round 3, with one line
// naming rules.lua and the cause; an honest battle sharing the pool plays
// on exactly as in this process; and the rules' worker is gone.
func TestRulesBackstop(t *testing.T) {
	// The spin waits out a short wall-clock bound; the other hooks get a
	// long one, so that a slow death (a stack overflow under the race
	// detector) is not mistaken for a spin.
	short := testPool(t, Options{Size: 2, MemoryMiB: 256, CallTimeout: 2 * time.Second, PerInstruction: time.Nanosecond})
	long := testPool(t, Options{Size: 2, MemoryMiB: 256, CallTimeout: time.Minute})
	paint := loadGame(t, "paint")
	honest := engine.ModOptions{Size: 40, Rounds: 40, Seed: 2, Workers: 1}
	want := modBattle(t, paint, honest, nil, nil)
	for want.Step() {
	}
	cases := []struct{ hook, shown string }{
		{"go_spin()", "wall-clock"},
		{"go_alloc()", "out of memory"},
		{"go_recurse()", "stack"},
		{"go_exit()", "exit status 3"},
		{"go_nil()", "nil pointer"},
		{"kill", "signal: killed"},
	}
	for _, c := range cases {
		t.Run(strings.Trim(c.hook, "()"), func(t *testing.T) {
			if c.hook == "go_alloc()" && !AddressSpaceLimited() {
				t.Skip("no address-space limit under the race detector or off Linux: the hook would take the machine's memory")
			}
			p := long
			if c.hook == "go_spin()" {
				p = short
			}
			hook := c.hook
			if hook == "kill" {
				hook = "" // killed from outside instead, below
			}
			g := hostileRules(t, hook)
			var wg sync.WaitGroup
			wg.Add(1)
			other := modBattle(t, paint, honest, nil, long)
			go func() {
				defer wg.Done()
				for other.Step() {
				}
			}()
			pl := g.Players()[0]
			seen := &seenRules{Pool: p}
			b, err := luabind.NewWalledModBattle(g, []*luabind.Class{pl, pl}, engine.ModOptions{Size: 4, Rounds: 10, Seed: 1, Workers: 2}, 1_000_000, nil, seen)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			b.Step()
			b.Step()
			pid := seen.r.w.cmd.Process.Pid
			if c.hook == "kill" {
				syscall.Kill(pid, syscall.SIGKILL)
			}
			for b.Step() {
			}
			wg.Wait()
			err = b.Err()
			if err == nil || b.Round() != 3 {
				t.Fatalf("round %d, error %v; want the battle stopped in round 3", b.Round(), err)
			}
			msg := err.Error()
			if strings.ContainsAny(msg, "\n\r") || !strings.Contains(msg, "scripts/hostile/rules.lua: the rules' worker process") || !strings.Contains(msg, c.shown) {
				t.Errorf("error %q, want one line naming scripts/hostile/rules.lua and %q", msg, c.shown)
			} else {
				t.Logf("shown as: %s", msg)
			}
			s := b.Snapshot()
			if len(s.FirstProblems) == 0 || s.FirstProblems[len(s.FirstProblems)-1].Message != msg {
				t.Errorf("problems %+v, want the error among them", s.FirstProblems)
			}
			if s.Teams[0].Values[0] != 2 {
				t.Errorf("score %v, want the board as round 2 left it", s.Teams[0].Values)
			}
			if other.Err() != nil || !sameSnapshot(other.Snapshot(), want.Snapshot()) {
				t.Errorf("the honest battle sharing the pool changed (error %v)", other.Err())
			}
			b.Close()
			other.Close()
			if slices.Contains(p.Pids(), pid) || alive(pid) {
				t.Errorf("the rules' worker %d outlived its battle", pid)
			}
		})
	}
	for _, p := range []*Pool{short, long} {
		pids := p.Pids()
		p.Close()
		for _, pid := range pids {
			if alive(pid) {
				t.Errorf("worker %d outlived the pool", pid)
			}
		}
	}
}

// seenRules is the pool as a RulesSeater that keeps the last rule mod
// rules it seated, so a test can find their worker.
type seenRules struct {
	*Pool
	r *rulesSeat
}

func (s *seenRules) ModRules(spec luabind.RulesSpec) (engine.Rules, error) {
	r, err := s.Pool.ModRules(spec)
	if err == nil {
		s.r = r.(*modRules).rulesSeat
	}
	return r, err
}

func sameSnapshot(a, b *engine.Snapshot) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// TestRulesBrokenWorker: a rules worker that answers with a frame naming
// a huge size, or with an empty answer where the rules' changes belong,
// stops the battle with one line naming rules.lua, before it starts or at
// its first call.
func TestRulesBrokenWorker(t *testing.T) {
	g := hostileRules(t, "")
	pl := g.Players()[0]
	for _, kind := range []string{"huge", "garbage"} {
		t.Run(kind, func(t *testing.T) {
			p, err := NewPool(Options{Command: []string{os.Args[0], "__liar", kind}, Size: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			b, err := luabind.NewWalledModBattle(g, []*luabind.Class{pl, pl}, engine.ModOptions{Size: 4, Rounds: 10, Seed: 1}, 1_000_000, nil, p)
			if err == nil {
				defer b.Close()
				for b.Step() {
				}
				err = b.Err()
			}
			if err == nil || !strings.Contains(err.Error(), "scripts/hostile/rules.lua: the rules' worker process sent a malformed answer") {
				t.Fatalf("error %v, want the malformed answer named", err)
			}
			t.Logf("shown as: %v", err)
		})
	}
}

// TestRulesCrashTournament: in a tournament of two battles run at once on
// one pool, the battle whose rules.lua kills its worker fails with one line
// naming rules.lua; the other ends as it does in this process.
func TestRulesCrashTournament(t *testing.T) {
	p := testPool(t, Options{Size: 2})
	paint := loadGame(t, "paint")
	hostile := hostileRules(t, "go_exit()")
	o := engine.ModOptions{Size: 40, Rounds: 30, Workers: 1}
	want := modBattle(t, paint, engine.ModOptions{Size: 40, Rounds: 30, Seed: 2, Workers: 1}, nil, nil)
	for want.Step() {
	}
	play := func(game tournament.Game) (tournament.Result, error) {
		g, players, o := paint, paint.Players(), o
		if game.Index == 0 {
			g, players, o.Size = hostile, []*luabind.Class{hostile.Players()[0], hostile.Players()[0]}, 4
		}
		o.Seed = game.Seed
		b, err := luabind.NewWalledModBattle(g, players, o, 1_000_000, nil, p)
		if err != nil {
			return tournament.Result{}, err
		}
		defer b.Close()
		for b.Step() {
		}
		if err := b.Err(); err != nil {
			return tournament.Result{}, err
		}
		if game.Index == 1 && !sameSnapshot(b.Snapshot(), want.Snapshot()) {
			return tournament.Result{}, errors.New("the honest battle differs from its play in this process")
		}
		return tournament.Result{Rounds: b.Round()}, nil
	}
	results := tournament.Run([]tournament.Game{{Index: 0, Seed: 1}, {Index: 1, Seed: 2}}, play, tournament.RunOptions{Workers: 2})
	if e := results[0].Error; !strings.Contains(e, "scripts/hostile/rules.lua: the rules' worker process died: exit status 3") {
		t.Errorf("hostile battle: %+v, want its worker's death named", results[0])
	}
	if results[1].Error != "" || results[1].Rounds != 30 {
		t.Errorf("honest battle: %+v, want 30 rounds and no error", results[1])
	}
}

// TestResolverBackstop: rules of the squarebattle protocol whose resolve
// calls a test hook in round 5 stop their battle there with one line naming
// rules.lua; the teams, in workers of their own, are not charged for it.
func TestResolverBackstop(t *testing.T) {
	src, err := scripts.FS.ReadFile("squarebattle-lua/rules.lua")
	if err != nil {
		t.Fatal(err)
	}
	hooked := strings.Replace(string(src), "resolve = function(game, acts, next_id)",
		"resolve = function(game, acts, next_id)\n    if game.round() == 5 then go_exit() end", 1)
	if hooked == string(src) {
		t.Fatal("no resolve function to hook")
	}
	g, err := luabind.LoadGame(fstest.MapFS{"rules.lua": {Data: []byte(hooked)}}, "scripts/hooked", luabind.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := testPool(t, Options{Size: 3})
	cat := shipped(t)
	players := cat.Players()[:2]
	o := engine.Options{Size: 12, Wrap: true, Rounds: 50, ReplicateRounds: 5, Seed: 4, Workers: 2}
	b, err := luabind.NewWalledBattle(cat, players, o, g, rulesBudget, p.Seat, p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	s := b.Run()
	err = b.Err()
	if err == nil || s.Round != 5 || !strings.Contains(err.Error(), "scripts/hooked/rules.lua: the rules' worker process died: exit status 3") {
		t.Fatalf("round %d, error %v; want the battle stopped in round 5 naming rules.lua", s.Round, err)
	}
	for _, team := range s.Teams {
		if team.Stats.Errors != 0 || team.Stats.Timeouts != 0 {
			t.Errorf("team %d charged: %+v", team.Team, team.Stats)
		}
	}
}
