package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"path"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlite"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
	"github.com/squarebattle/squarebattle/scripts"
	tuissh "github.com/squarebattle/squarebattle/tui/ssh"
)

// waiterSrc is a player of known strength: a fair fighter that waits,
// doing nothing, with probability p each turn (the lower, the stronger).
func waiterSrc(name string, p float64) string {
	return fmt.Sprintf(`local P = %g
return {
  name = %q,
  run = function(self, team, view, row, col)
    if math.random() < P then return WAIT end
    for d = 1, 8 do
      local v = view[d]
      if v ~= EMPTY and v ~= WALL and v ~= team then return ATTACK, d end
    end
    local d = math.random(8)
    if view[d] == EMPTY then
      if math.random() < 0.3 then return REPLICATE, d end
      return MOVE, d
    end
    return WAIT
  end,
}
`, p, name)
}

// convergence is what BenchmarkLadderConvergence measured.
type convergence struct {
	players            int
	reached            time.Duration // from the submit to the rank first within 2 places of the final one
	within2            time.Duration // from the submit to the rank staying within 2 places of the final one
	final              int
	curve              []string
	soloRPS, loadedRPS float64
	battles60          int    // the new player's battles in its first 60 s
	copied             string // whose source the new player is
}

// BenchmarkLadderConvergence: 50 players on the ladder (the shipped ones
// and generated players of known strength), already settled; 10 SSH
// viewers watch the featured battle; a strong player is submitted and its
// rank sampled every second for 90 s. Reported: the seconds until its rank
// stays within 2 places of where it ends, and the featured battle's
// rounds/s with the ladder playing against those with it paused.
//
//	go test ./cmd/squarebattle -run '^$' -bench LadderConvergence -benchtime 1x -v
func BenchmarkLadderConvergence(b *testing.B) {
	for b.Loop() {
		f := ladderConvergence(b)
		b.ReportMetric(f.reached.Seconds(), "s-to-reach-within-2")
		b.ReportMetric(f.within2.Seconds(), "s-to-stay-within-2")
		b.ReportMetric(float64(f.final), "final-rank")
		b.ReportMetric(f.loadedRPS/f.soloRPS, "featured-ratio")
		b.ReportMetric(float64(f.battles60), "battles-in-60s")
		b.Logf("%d players; the new player is a copy of the leader, %s; featured %.1f rounds/s with the ladder paused, %.1f playing", f.players, f.copied, f.soloRPS, f.loadedRPS)
		b.Logf("rank of the new player, by seconds since its submit: %s", strings.Join(f.curve, " "))
	}
}

func ladderConvergence(tb testing.TB) convergence {
	ctx := context.Background()
	cfg := config.Default()
	cfg.Serve.DataDir = tb.TempDir()
	cfg.Serve.Ladder = config.ServeLadder{Enabled: true, Teams: 4, Size: 16, Rounds: 200, BattlesKept: 20, DiskMiB: 1024}
	cfg.Serve.Sessions, cfg.Serve.SessionsPerIP = 100, 100

	// 40 generated uploads beside the shipped players.
	store, err := tuissh.OpenStore(cfg.Serve.DataDir)
	if err != nil {
		tb.Fatal(err)
	}
	for i := range 40 {
		if _, err := store.Put("bench", fmt.Sprintf("w%02d", i), []byte(waiterSrc(fmt.Sprintf("Waiter %02d", i), 0.1+float64(i)*0.02))); err != nil {
			tb.Fatal(err)
		}
	}
	settleLadder(tb, cfg, store)

	a, addr := startArenaOf(tb, cfg)
	l := a.ladder.l
	_, players, _ := l.Leaderboard(ctx, "", 0, 1)
	var vs []*viewer
	for range 10 {
		vs = append(vs, watch(tb, addr, 80, 24, false))
	}
	defer func() {
		for _, v := range vs {
			v.close()
		}
	}()
	featured := func() int {
		for _, bi := range a.hall.Battles("") {
			if bi.Featured {
				return bi.Round
			}
		}
		return 0
	}
	rps := func(d time.Duration) float64 {
		r0 := featured()
		time.Sleep(d)
		return float64(featured()-r0) / d.Seconds()
	}
	time.Sleep(time.Second)
	if err := l.Pause(ctx, true); err != nil {
		tb.Fatal(err)
	}
	time.Sleep(time.Second) // the battles playing end
	var f convergence
	f.players = players + 1
	f.soloRPS = rps(5 * time.Second)
	if err := l.Pause(ctx, false); err != nil {
		tb.Fatal(err)
	}

	c, err := dialAs(addr, 5, "champ", loadKey(tb))
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	var loaded atomic.Value
	go func() { loaded.Store(rps(30 * time.Second)) }()
	s, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	// The strong player: the leader's own source under another name.
	top, _, err := l.Leaderboard(ctx, "", 0, 1)
	if err != nil || len(top) == 0 {
		tb.Fatalf("no leader: %v", err)
	}
	src, err := l.Source(ctx, versionHash(tb, l, top[0].Player))
	if err != nil {
		tb.Fatal(err)
	}
	f.copied = top[0].Name
	s.Stdin = strings.NewReader("local t = (function()\n" + string(src) + "\nend)()\nt.name = \"Champion\"\nreturn t\n")
	if out, err := s.CombinedOutput("submit champion"); err != nil {
		tb.Fatalf("submit: %v\n%s", err, out)
	}
	t0 := time.Now()
	var ranks []int
	var p ladder.Player
	for i := 1; i <= 90; i++ {
		time.Sleep(time.Until(t0.Add(time.Duration(i) * time.Second)))
		if p.ID == 0 {
			p, _ = l.PlayerByName(ctx, "", "champ.champion")
		}
		rank := 0
		if pg, err := l.History(ctx, p.ID, 1); err == nil {
			rank = pg.Rank
			if i == 60 {
				f.battles60 = pg.SinceVersion
			}
		}
		ranks = append(ranks, rank)
		if i%3 == 0 {
			f.curve = append(f.curve, fmt.Sprintf("%ds:%d", i, rank))
		}
	}
	// Its final rank: the median of the last 15 samples (the top of a
	// table is tight, and one battle moves a rank or two either way).
	last := slices.Clone(ranks[len(ranks)-15:])
	slices.Sort(last)
	f.final = last[len(last)/2]
	near := func(r int) bool { return r > 0 && r >= f.final-2 && r <= f.final+2 }
	f.reached, f.within2 = 90*time.Second, 90*time.Second
	for i, r := range ranks {
		if near(r) {
			f.reached = time.Duration(i+1) * time.Second
			break
		}
	}
	for i := len(ranks) - 1; i >= 0 && near(ranks[i]); i-- {
		f.within2 = time.Duration(i+1) * time.Second
	}
	for loaded.Load() == nil {
		time.Sleep(100 * time.Millisecond)
	}
	f.loadedRPS = loaded.Load().(float64)
	return f
}

// settleLadder plays the ladder of cfg's players in this process until the
// table has settled (25 battles a player), before the arena opens it.
func settleLadder(tb testing.TB, cfg config.Config, store *tuissh.Store) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path.Join(store.Dir(), "ladder.db"))
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	gcfg := cfg
	gcfg.Arena.Size, gcfg.Rules.Rounds = cfg.Serve.Ladder.Size, cfg.Serve.Ladder.Rounds
	game := ranked.Game{Config: gcfg, Teams: cfg.Serve.Ladder.Teams}
	lg, err := game.Ladder()
	if err != nil {
		tb.Fatal(err)
	}
	l, err := ladder.New(ladder.Options{Store: st, Games: []ladder.Game{lg}})
	if err != nil {
		tb.Fatal(err)
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: scripts.FS, Dir: "scripts"})
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for _, cls := range cat.Players() {
		src, _ := fs.ReadFile(scripts.FS, path.Base(cls.File))
		if _, err := l.Enter(ctx, "", cls.ID, "", cls.DisplayName(), src); err != nil {
			tb.Fatal(err)
		}
		n++
	}
	ups, err := store.Sources()
	if err != nil {
		tb.Fatal(err)
	}
	names := make([]string, 0, len(ups))
	for name := range ups {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		id := strings.TrimSuffix(name, ".lua")
		if _, err := l.Enter(ctx, "", id, "bench", id, ups[name]); err != nil {
			tb.Fatal(err)
		}
		n++
	}
	reps, err := ranked.OpenReplays(path.Join(store.Dir(), "ladder", "replays"), 1<<30, 20)
	if err != nil {
		tb.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	var done atomic.Int64
	want := int64(n * 25 / cfg.Serve.Ladder.Teams)
	r, err := ranked.New(ranked.Options{Ladder: l, Games: []ranked.Game{game}, Replays: reps, Workers: 2,
		Finished: func(ladder.Battle) {
			if done.Add(1) >= want {
				cancel()
			}
		}})
	if err != nil {
		tb.Fatal(err)
	}
	r.Run(rctx)
}

// startArenaOf starts an arena of cfg on a loopback port.
func startArenaOf(tb testing.TB, cfg config.Config) (*serveArena, string) {
	a, err := newArena(cfg, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		tb.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	go a.srv.Serve(l)
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a.srv.Shutdown(ctx)
		a.close()
	})
	return a, l.Addr().String()
}

// versionHash is the source hash of p's current version.
func versionHash(tb testing.TB, l *ladder.Ladder, p ladder.Player) string {
	pg, err := l.History(context.Background(), p.ID, 1)
	if err != nil {
		tb.Fatal(err)
	}
	for _, v := range pg.Versions {
		if v.ID == p.Version {
			return v.Hash
		}
	}
	tb.Fatalf("%s has no current version", p.Name)
	return ""
}
