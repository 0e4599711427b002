package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// ladderConfig is serveConfig with the ladder playing small, short
// battles of three on one worker.
func ladderConfig(t *testing.T) config.Config {
	cfg := serveConfig(t)
	cfg.Serve.Ladder = config.ServeLadder{Enabled: true, Teams: 3, Size: 14, Rounds: 60, Workers: 1, BattlesKept: 5, DiskMiB: 64}
	return cfg
}

// startLadderArena is startArena, returning the arena too (stopArena
// stops it before the test's end).
func startLadderArena(t *testing.T, cfg config.Config) (string, *serveArena) {
	t.Helper()
	a, err := newArena(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go a.srv.Serve(l)
	t.Cleanup(func() { stopArena(t, a) })
	return l.Addr().String(), a
}

// hunterSrc is a fair player; its second version differs by a comment.
const hunterSrc = `return {
  name = "Hunter",
  run = function(self, team, view, row, col)
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
`

var battleLineRE = regexp.MustCompile(`(?m)^battle (L\d+): place \d of 3 against .+; rating -?\d+\.\d\d \([+-]\d+\.\d\d\); rank \d+ of \d+$`)

// TestServeLadder: a submitted player is on the ladder at once; `submit
// --wait` prints its rated battles and its settled rank; `get` hands out
// a ladder battle's replay to anybody (with the others' print logs
// withheld) and it reads; a resubmission keeps μ and resets σ; two users
// submitting the same name at once get two players.
func TestServeLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ladder battles with real checks")
	}
	addr, a := startLadderArena(t, ladderConfig(t))
	ctx := context.Background()
	l := a.ladder.l
	board, total, err := l.Leaderboard(ctx, "", 0, 0)
	if err != nil || total < 5 || len(board) != total {
		t.Fatalf("the shipped players are not on the ladder: %d (%v)", total, err)
	}

	alice := sshClient(t, addr, "alice")
	out, errOut, status := sshRun(t, alice, "submit hunter --wait", []byte(hunterSrc))
	if status != 0 {
		t.Fatalf("submit --wait: status %d\n%s\n%s", status, out, errOut)
	}
	lines := battleLineRE.FindAllStringSubmatch(out, -1)
	if len(lines) < settleMin || !strings.Contains(out, "settled: rank ") {
		t.Fatalf("submit --wait printed %d battle lines, want at least %d and the settled rank:\n%s", len(lines), settleMin, out)
	}
	p, err := l.PlayerByName(ctx, "", "alice.hunter")
	if err != nil || p.Owner != "alice" || p.Battles < settleMin {
		t.Fatalf("alice.hunter on the ladder: %+v, %v", p, err)
	}

	// Anybody may get a ladder battle's replay; it reads whole.
	bob := sshClient(t, addr, "bob")
	id := lines[0][1]
	data, errOut, status := sshRun(t, bob, "get "+id, nil)
	if status != 0 {
		t.Fatalf("get %s: status %d: %s", id, status, errOut)
	}
	rep, err := replay.Read(bytes.NewReader([]byte(data)), id+".sbr")
	if err != nil || rep.Result == nil || rep.Damage != nil {
		t.Fatalf("replay %s: %v, result %v, damage %v", id, err, rep != nil && rep.Result != nil, rep)
	}
	found := false
	for _, c := range rep.Header.Classes {
		found = found || c.ID == "alice.hunter"
	}
	if !found {
		t.Errorf("replay %s names classes %+v, not alice.hunter", id, rep.Header.Classes)
	}
	if _, errOut, status := sshRun(t, bob, "get L999999", nil); status == 0 || !strings.Contains(errOut, "no replay L999999") {
		t.Errorf("get of a battle never played: status %d %q", status, errOut)
	}

	// A new version keeps μ, gets σ back to the start.
	before, _ := l.PlayerByName(ctx, "", "alice.hunter")
	if _, errOut, status := sshRun(t, alice, "submit hunter", []byte(hunterSrc+"-- v2\n")); status != 0 {
		t.Fatalf("resubmit: %d %s", status, errOut)
	}
	after, _ := l.PlayerByName(ctx, "", "alice.hunter")
	start := l.Model().NewRating().Sigma
	if after.Version == before.Version || after.Rating.Sigma != start {
		t.Errorf("resubmitted: version %d→%d, σ %.3f, want a new version with σ %.3f", before.Version, after.Version, after.Rating.Sigma, start)
	}
	// μ moves only by battles rated meanwhile: the version's own change
	// keeps it.
	changes, err := ladderChanges(ctx, a, after.ID)
	if err != nil || len(changes) == 0 || changes[0].Kind != ladder.ByVersion && !hasVersionChange(changes, after.Version, before.Rating.Mu) {
		t.Errorf("no version change keeping μ %.3f: %+v %v", before.Rating.Mu, changes, err)
	}

	// Two users submit the same player name at once: each gets a player
	// of their own (user.twin); the display name they both chose goes to
	// one of them, and the other is told why not.
	twin := []byte(strings.Replace(hunterSrc, `"Hunter"`, `"Twin"`, 1))
	var wg sync.WaitGroup
	statuses := map[string]int{}
	var mu sync.Mutex
	for i, user := range []string{"carol", "dave"} {
		// From two addresses, so that their checks run at once.
		c, err := dialAs(addr, byte(3+i), user, newKey(t))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errOut, status := sshRun(t, c, "submit twin", twin)
			mu.Lock()
			statuses[user] = status
			mu.Unlock()
			if status != 0 && !strings.Contains(errOut, "must not share a name") && !strings.Contains(errOut, "pick another name") {
				t.Errorf("%s: submit twin: %d %s", user, status, errOut)
			}
		}()
	}
	wg.Wait()
	on := 0
	for _, user := range []string{"carol", "dave"} {
		p, err := l.PlayerByName(ctx, "", user+".twin")
		stored := err == nil && !p.Retired
		if stored != (statuses[user] == 0) {
			t.Errorf("%s.twin: submit status %d, on the ladder %v (%v)", user, statuses[user], stored, err)
		}
		if stored {
			on++
		}
	}
	if on != 1 {
		t.Errorf("%d players named Twin on the ladder, want 1", on)
	}
}

func ladderChanges(ctx context.Context, a *serveArena, id ladder.PlayerID) ([]ladder.RatingChange, error) {
	pg, err := a.ladder.l.History(ctx, id, 0)
	return pg.Changes, err
}

// hasVersionChange finds the change that made version v current, and
// checks it kept μ.
func hasVersionChange(cs []ladder.RatingChange, v ladder.VersionID, mu float64) bool {
	for _, c := range cs {
		if c.Kind == ladder.ByVersion && c.Version == v {
			return c.After.Mu == c.Before.Mu
		}
	}
	return false
}

// TestServeLadderRestart: the ladder's database stays in the data dir:
// a restarted arena has every player and battle of the first.
func TestServeLadderRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ladder battles")
	}
	cfg := ladderConfig(t)
	_, a := startLadderArena(t, cfg)
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Minute)
	var done []ladder.Battle
	for len(done) < 3 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		done, _ = a.ladder.l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
	}
	if len(done) < 3 {
		t.Fatalf("%d battles done in 2 minutes", len(done))
	}
	stopArena(t, a)
	cfg.Serve.Ladder.Enabled = false
	_, b := startLadderArena(t, cfg)
	again, err := b.ladder.l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Done}})
	if err != nil || len(again) < len(done) {
		t.Fatalf("after a restart %d battles done (%v), before %d", len(again), err, len(done))
	}
}

// TestServeLadderAdmin: an admin pauses the ladder (no battle is planned
// while it is paused), resumes it, resets a player's rating and re-rates
// from the stored results (checked against the replays), leaving the table
// as it was; anybody else is refused, and a player or game that is not
// there is a one-line error with status 2.
func TestServeLadderAdmin(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ladder battles")
	}
	cfg := ladderConfig(t)
	adminKey := newKey(t)
	keys := filepath.Join(t.TempDir(), "admins")
	if err := os.WriteFile(keys, gossh.MarshalAuthorizedKey(adminKey.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg.Serve.Admins = keys
	addr, a := startLadderArena(t, cfg)
	ctx := context.Background()
	l := a.ladder.l
	admin := keyClient(t, addr, "root", adminKey)
	eve := sshClient(t, addr, "eve")

	if _, errOut, status := sshRun(t, eve, "ladder-admin pause", nil); status != 2 || !strings.Contains(errOut, "only an admin") {
		t.Errorf("eve pauses: %d %q", status, errOut)
	}
	waitBattles(t, l, 4)
	if out, errOut, status := sshRun(t, admin, "ladder-admin pause", nil); status != 0 || !strings.Contains(out, "paused") {
		t.Fatalf("pause: %d %q %q", status, out, errOut)
	}
	time.Sleep(500 * time.Millisecond) // a battle playing as it paused finishes
	n0 := len(battles(t, l, ladder.Queued, ladder.Playing, ladder.Played, ladder.Done))
	time.Sleep(time.Second)
	if n1 := len(battles(t, l, ladder.Queued, ladder.Playing, ladder.Played, ladder.Done)); n1 != n0 {
		t.Errorf("%d battles planned while paused", n1-n0)
	}
	if _, errOut, status := sshRun(t, admin, "ladder-admin resume", nil); status != 0 {
		t.Fatalf("resume: %d %q", status, errOut)
	}
	waitBattles(t, l, n0+3)

	if _, errOut, status := sshRun(t, admin, "ladder-admin reset explorer", nil); status != 0 {
		t.Fatalf("reset: %d %q", status, errOut)
	}
	p, err := l.PlayerByName(ctx, "", "explorer")
	if err != nil {
		t.Fatal(err)
	}
	changes, _ := ladderChanges(ctx, a, p.ID)
	if len(changes) == 0 || changes[0].Kind != ladder.ByReset && !slices.ContainsFunc(changes, func(c ladder.RatingChange) bool { return c.Kind == ladder.ByReset }) {
		t.Errorf("no reset among explorer's changes: %+v", changes)
	}
	for _, c := range []string{"ladder-admin reset nobody", "ladder-admin rerate chess", "ladder-admin frobnicate"} {
		if _, errOut, status := sshRun(t, admin, c, nil); status != 2 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%s: %d %q, want status 2 and one line", c, status, errOut)
		}
	}

	sshRun(t, admin, "ladder-admin pause", nil)
	// Paused, the ladder plans nothing more, but plays and rates what it
	// planned ahead: the table is still once none is left.
	waitFor(t, func() bool { return len(battles(t, l, ladder.Queued, ladder.Playing, ladder.Played)) == 0 }, "the battles planned before the pause rated")
	before, _, _ := l.Leaderboard(ctx, "", 0, 0)
	out, errOut, status := sshRun(t, admin, "ladder-admin rerate", nil)
	if status != 0 || !regexp.MustCompile(`SquareBattle: \d+ battles re-rated from the stored results; \d+ replays agree with them, \d+ pruned, 0 differ, 0 unreadable`).MatchString(out) {
		t.Fatalf("rerate: %d %q %q", status, out, errOut)
	}
	after, _, _ := l.Leaderboard(ctx, "", 0, 0)
	for i := range before {
		if before[i].ID != after[i].ID || math.Abs(before[i].Ordinal()-after[i].Ordinal()) > 1e-9 {
			t.Errorf("line %d: %s %.6f before the re-rating, %s %.6f after", i, before[i].Name, before[i].Ordinal(), after[i].Name, after[i].Ordinal())
		}
	}
}

// waitBattles waits until n battles are done.
func waitBattles(t *testing.T, l *ladder.Ladder, n int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for len(battles(t, l, ladder.Done)) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d battles done in 3 minutes, want %d", len(battles(t, l, ladder.Done)), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func battles(t *testing.T, l *ladder.Ladder, states ...ladder.State) []ladder.Battle {
	t.Helper()
	bs, err := l.Battles(context.Background(), ladder.BattleQuery{States: states})
	if err != nil {
		t.Fatal(err)
	}
	return bs
}
