package main

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
	"unicode/utf8"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// Hostile remote bots (issue 27): each misbehaviour of a bot connected
// with `ssh HOST bot NAME` costs only its own team and its own session.
// The battles are played here, in this process, with the hub's claimed
// connections as teams (as the ladder and the lobby claim them), so that
// each case's battle is known: the hostile bot, an honest bot of another
// user and a Lua team. The ladder's own use of remote bots is
// TestServeRemoteBot's.

// hostileClock is serve.bots for the suite: a short round without a bank,
// so that a bot late by a few milliseconds is late every round, and few
// faults before a retirement.
var hostileClock = config.Bots{InitMS: 3000, RoundMS: 200, BankMS: 0, MaxFaults: 3}

const hostileRounds = 20

// botScript is what a bot's client does: the ready line it answers hello
// with, and what it does for each round message (nil: answers at once).
// after runs once ready is written, beside the reading (a flood).
type botScript struct {
	ready string
	round func(w *lockedWriter, round int)
	after func(w *lockedWriter)
}

// lockedWriter keeps the lines of two writers of a session whole.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) line(s string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := io.WriteString(l.w, s+"\n")
	return err
}

// scriptBot is one bot connection played by a script.
type scriptBot struct {
	s      *gossh.Session
	rounds int // round messages read, once done is closed
	done   chan struct{}
	stderr syncLog
}

// answer is an honest answer: every square waits.
func answer(round int) string {
	return fmt.Sprintf(`{"type":"actions","round":%d,"actions":[]}`, round)
}

func startScript(t *testing.T, c *gossh.Client, name string, sc botScript) *scriptBot {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	b := &scriptBot{s: s, done: make(chan struct{})}
	s.Stderr = &b.stderr
	if err := s.Start("bot " + name); err != nil {
		t.Fatal(err)
	}
	w := &lockedWriter{w: in}
	go func() {
		defer close(b.done)
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			var m struct {
				Type  string `json:"type"`
				Round int    `json:"round"`
			}
			if json.Unmarshal([]byte(line), &m) != nil {
				continue
			}
			switch m.Type {
			case "hello":
				w.line(sc.ready)
				if sc.after != nil {
					go sc.after(w)
				}
			case "round":
				b.rounds++
				if sc.round != nil {
					sc.round(w, m.Round)
				} else {
					w.line(answer(m.Round))
				}
			}
		}
	}()
	t.Cleanup(func() { s.Close(); <-b.done })
	return b
}

// claimWhenFree claims bot id's connection as a team once it is
// connected and free.
func claimWhenFree(t *testing.T, a *serveArena, id string) battle.Team {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var why error
	for {
		if a.bots.free(id) {
			tm, ok, err := a.bots.claimTeam(id)
			if ok && err == nil {
				return tm
			}
			why = err
		}
		if time.Now().After(deadline) {
			a.bots.mu.Lock()
			ls, known := a.bots.links[id], a.bots.known[id]
			a.bots.mu.Unlock()
			busy := []bool{}
			for _, l := range ls {
				busy = append(busy, l.Busy())
			}
			t.Fatalf("bot %s not connected and free after 30 s (%v; known %+v, busy %v)", id, why, known, busy)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hostileBattle plays bot ids and a Lua team that waits, on a small
// arena, under serve.bots' clock.
func hostileBattle(t *testing.T, a *serveArena, ids ...string) battle.Result {
	t.Helper()
	cfg := a.cfg
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fstest.MapFS{
		"stay.lua": {Data: []byte(`return { name = "Stay", run = function() end }`)}}, Dir: "hostile", Limits: battle.Limits(cfg)})
	if err != nil {
		t.Fatal(err)
	}
	stay, err := cat.Find("stay")
	if err != nil {
		t.Fatal(err)
	}
	var teams []battle.Team
	for _, id := range ids {
		teams = append(teams, claimWhenFree(t, a, id))
	}
	teams = append(teams, battle.Team{Lua: stay})
	cfg.Arena.Size, cfg.Rules.Rounds = 12, hostileRounds
	o := battle.Options(cfg)
	o.Seed, o.Workers = 1, 1
	res, err := battle.Play(battle.Setup{Config: cfg, Catalog: cat, Teams: teams, Options: o, Timing: battle.Timing(configWithBots(cfg), false)})
	if err != nil {
		t.Fatalf("the battle: %v", err)
	}
	return res
}

// waitGone waits until the hub holds no connection of bot id.
func waitGone(t *testing.T, a *serveArena, id string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		a.bots.mu.Lock()
		n := len(a.bots.links[id])
		a.bots.mu.Unlock()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hub still holds %d connections of %s 30 s after its session closed", n, id)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// nested is a JSON list nested n deep.
func nested(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// TestServeBotsHostile: bots that never answer, answer late every round,
// flood, send lines past 1 MiB, invalid UTF-8 or deeply nested JSON each
// cost only their own team: the honest bot and the Lua team of the same
// battle play every round, the battle finishes, a viewer of the featured
// battle keeps getting frames. A bot that stops reading is let go after
// the send timeout; names that are not the user's own are refused with
// one line; 50 connections of one user stop at the per-user cap while
// another user's bot plays on. Once everybody has left, the server's
// goroutines and heap are back where they were.
func TestServeBotsHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("plays battles with remote bots over SSH")
	}
	cfg := serveConfig(t)
	cfg.Serve.Bots = hostileClock
	cfg.Serve.FeaturedPlayers = "explorer,explorer"
	cfg.Serve.FeaturedSize = 16
	cfg.Serve.FeaturedRounds = 10_000_000
	cfg.Serve.Sessions, cfg.Serve.SessionsPerIP, cfg.Serve.ConnectionsPerMinute = 500, 500, 100000
	addr, a := startLadderArena(t, cfg)
	a.bots.sendTimeout = time.Second
	// The viewer and a bystander run from start to end; the baseline is
	// taken with them there.
	v := watch(t, addr, 80, 24, false)
	bystander := sshClient(t, addr, "carol")
	if _, errOut, status := sshRun(t, bystander, "players", nil); status != 0 {
		t.Fatalf("players: %d %s", status, errOut)
	}
	time.Sleep(300 * time.Millisecond)
	baseG, baseHeap := runtime.NumGoroutine(), heapNow()

	late := time.Duration(hostileClock.RoundMS)*time.Millisecond + 15*time.Millisecond
	cases := []struct {
		name   string
		script botScript
		// check says what is wrong with the hostile team ("" nothing).
		check func(tv engine.TeamView) string
		// ends: the server ends the bot's session by itself, saying
		// this (a regular expression) on its stderr: the link's reason,
		// or the session's own bound on unread input (tui/ssh), whichever
		// comes first.
		ends string
	}{
		{"never answers", botScript{ready: `{"type":"ready","name":"Silent"}`, round: func(*lockedWriter, int) {}},
			retiredWith("faults in a row"), ""},
		{"late every round", botScript{ready: `{"type":"ready","name":"Late"}`, round: func(w *lockedWriter, r int) {
			go func() { time.Sleep(late); w.line(answer(r)) }()
		}}, retiredWith("no answer within"), ""},
		{"floods lines", botScript{ready: `{"type":"ready","name":"Flood"}`, round: func(*lockedWriter, int) {},
			after: func(w *lockedWriter) {
				for w.line(`{"type":"actions","round":0,"actions":[]}`) == nil {
				}
			}}, retiredWith("faults in a row|closed its output"), "no battle asked it anything|input arrived faster than it was read"},
		// A slow reader (the race detector) may let the session's own bound
		// on unread input end the bot first, or read no whole line within
		// the round clock, so that the bot's faults retire it first: it is
		// retired either way.
		{"1 MiB lines", botScript{ready: `{"type":"ready","name":"Huge"}`, round: func(w *lockedWriter, r int) {
			w.line(`{"type":"actions","round":` + fmt.Sprint(r) + `,"actions":["` + strings.Repeat("w", bot.MaxLine) + `"]}`)
		}}, retiredWith("too long|its connection ended|closed its output|faults in a row"), "too long|input arrived faster than it was read"},
		{"invalid UTF-8", botScript{ready: "{\"type\":\"ready\",\"name\":\"\xff\xfe\\u001b[2J\\u001b]0;owned\\u0007Evil\u202e\xc0\x80\"}",
			round: func(w *lockedWriter, r int) {
				w.line(fmt.Sprintf("{\"type\":\"actions\",\"round\":%d,\"actions\":[\"\xff\x1b[31m\"]}", r))
			}}, func(tv engine.TeamView) string {
			if n := tv.Player.Name; !utf8.ValidString(n) || !engine.IsSafeText(n) || !strings.Contains(n, "Evil") {
				return fmt.Sprintf("its name %q reaches terminals unsafe", n)
			}
			if tv.Stats.Errors == 0 {
				return "no error counted"
			}
			return ""
		}, ""},
		{"deeply nested JSON", botScript{ready: `{"type":"ready","name":"Nest"}`, round: func(w *lockedWriter, r int) {
			w.line(fmt.Sprintf(`{"type":"actions","round":%d,"actions":%s}`, r, nested(400_000)))
		}}, retiredWith("faults in a row"), ""},
	}
	t.Run("attacks", func(t *testing.T) {
		for i, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				evilUser, goodUser := fmt.Sprintf("evil%d", i), fmt.Sprintf("good%d", i)
				evil, good := sshClient(t, addr, evilUser), sshClient(t, addr, goodUser)
				eb := startScript(t, evil, "hostile", tc.script)
				gb := startScript(t, good, "honest", botScript{ready: `{"type":"ready","name":"Honest"}`})
				res := hostileBattle(t, a, evilUser+".hostile", goodUser+".honest")
				f := res.Final
				if f.Round != hostileRounds {
					t.Errorf("the battle ended in round %d, want %d", f.Round, hostileRounds)
				}
				if why := tc.check(f.Teams[0]); why != "" {
					t.Errorf("the hostile team: %s (retired %+v, %d timeouts, %d errors)", why, f.Teams[0].Retired,
						f.Teams[0].Stats.Timeouts, f.Teams[0].Stats.Errors)
				}
				for team := 1; team < 3; team++ {
					if r := f.Teams[team].Retired; r.Reason != "" {
						t.Errorf("team %d retired beside the hostile bot: %+v", team, r)
					}
				}
				// The honest bot read every round (its session, read
				// here, goes on meanwhile).
				gb.s.Close()
				<-gb.done
				if gb.rounds < hostileRounds {
					t.Errorf("the honest bot read %d round messages, want %d", gb.rounds, hostileRounds)
				}
				if _, errOut, status := sshRun(t, bystander, "players", nil); status != 0 {
					t.Errorf("a bystander's command after the battle: %d %s", status, errOut)
				}
				if tc.ends != "" {
					waited := make(chan error, 1)
					go func() { waited <- eb.s.Wait() }() // stderr copied too
					select {
					case <-waited:
					case <-time.After(10 * time.Second):
						t.Errorf("the server did not end the session of a bot that %s", tc.name)
					}
					if !regexp.MustCompile(tc.ends).MatchString(eb.stderr.String()) {
						t.Errorf("the bot's stderr %q does not say %q", eb.stderr.String(), tc.ends)
					}
				}
				eb.s.Close()
				<-eb.done
				waitGone(t, a, evilUser+".hostile")
				waitGone(t, a, goodUser+".honest")
			})
		}
		t.Run("stops reading", func(t *testing.T) {
			t.Parallel()
			hostileStopsReading(t, a, sshClient(t, addr, "sloth"))
		})
		t.Run("names", func(t *testing.T) {
			t.Parallel()
			hostileNames(t, a, addr)
		})
		t.Run("50 connections of one user", func(t *testing.T) {
			t.Parallel()
			hostileMany(t, a, addr)
		})
	})

	// The viewer got frames all along and still does.
	f0 := v.frames.Load()
	deadline := time.Now().Add(30 * time.Second)
	for v.frames.Load() == f0 {
		if time.Now().After(deadline) {
			t.Fatal("the viewer gets no frame after the attacks")
		}
		time.Sleep(10 * time.Millisecond)
	}

	// Everybody has left (each case closed its clients): the goroutines
	// and the heap come back.
	deadline = time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > baseG+2 {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines 30 s after the attacks, %d before:\n%s", runtime.NumGoroutine(), baseG, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(20 * time.Millisecond)
	}
	if h := heapNow(); h > baseHeap+8<<20 {
		t.Errorf("heap %.1f MB after the attacks, %.1f MB before", float64(h)/(1<<20), float64(baseHeap)/(1<<20))
	}
	t.Logf("before: %d goroutines, heap %.1f MB; after: %d goroutines, heap %.1f MB",
		baseG, float64(baseHeap)/(1<<20), runtime.NumGoroutine(), float64(heapNow())/(1<<20))
	v.close()
}

// retiredWith checks that the team was retired for a reason that matches
// the regular expression want.
func retiredWith(want string) func(engine.TeamView) string {
	re := regexp.MustCompile(want)
	return func(tv engine.TeamView) string {
		if !re.MatchString(tv.Retired.Reason) {
			return fmt.Sprintf("not retired with %q", want)
		}
		return ""
	}
}

// hostileStopsReading: a bot that never reads its input: the server's
// writes block once the SSH window is full, and the connection ends
// within the send timeout of the write that blocked, holding nothing.
func hostileStopsReading(t *testing.T, a *serveArena, c *gossh.Client) {
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.StdinPipe()  // open and silent: a closed stdin is a bot that left
	s.StdoutPipe() // never read: the window (2 MiB) shuts
	var errOut syncLog
	s.Stderr = &errOut
	t.Cleanup(func() { t.Logf("the bot's stderr: %q", errOut.String()) })
	if err := s.Start("bot sloth"); err != nil {
		t.Fatal(err)
	}
	const id = "sloth.sloth"
	tm := claimWhenFree(t, a, id)
	conn, err := tm.Bot.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msg := []byte(`{"type":"round","pad":"` + strings.Repeat("p", 256<<10) + `"}`)
	var last time.Time
	sends := 0
	for {
		last = time.Now()
		if err = conn.Send(msg); err != nil {
			break
		}
		if sends++; sends > 1000 {
			t.Fatal("256 MiB sent to a bot that reads nothing")
		}
	}
	took := time.Since(last)
	if !errors.Is(err, bot.ErrClosed) || took > a.bots.sendTimeout+2*time.Second {
		t.Errorf("the blocked send ended after %v with %v; the send timeout is %v", took, err, a.bots.sendTimeout)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Error("the session of a bot that reads nothing outlived its connection")
	}
	waitGone(t, a, id)
	t.Logf("%d messages of 256 KiB taken, then a send blocked for %v: %v", sends, took.Round(time.Millisecond), err)
}

// hostileNames: a bot connects as its own user's NAME only; names of
// others, of the user's Lua uploads, with control characters, look-alike
// Unicode or too long are refused with one line that is safe to print.
func hostileNames(t *testing.T, a *serveArena, addr string) {
	alice, bob := sshClient(t, addr, "alice"), sshClient(t, addr, "bob")
	ab := startScript(t, alice, "mine", botScript{ready: `{"type":"ready"}`})
	battle.ReleaseBots([]battle.Team{claimWhenFree(t, a, "alice.mine")}) // connected
	// bob's NAME "mine" is bob.mine, another player.
	bb := startScript(t, bob, "mine", botScript{ready: `{"type":"ready"}`})
	battle.ReleaseBots([]battle.Team{claimWhenFree(t, a, "bob.mine")})
	a.bots.mu.Lock()
	rec := a.bots.known["alice.mine"]
	a.bots.mu.Unlock()
	if rec.User != "alice" {
		t.Errorf("alice.mine's record after bob's bot of the same name: %+v", rec)
	}
	for end := time.Now().Add(10 * time.Second); !strings.Contains(bb.stderr.String(), "bob.mine connected") && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond) // the note follows the connection
	}
	if !strings.Contains(bb.stderr.String(), "bob.mine connected") {
		t.Errorf("bob's bot: %q", bb.stderr.String())
	}
	// A quote is the shell's: `bot alice's-mine` is bob's alices-mine.
	qb := startScript(t, bob, "alice's-mine", botScript{ready: `{"type":"ready"}`})
	battle.ReleaseBots([]battle.Team{claimWhenFree(t, a, "bob.alices-mine")})
	for _, b := range []*scriptBot{ab, bb, qb} {
		b.s.Close()
		<-b.done
	}
	for _, id := range []string{"alice.mine", "bob.mine", "bob.alices-mine"} {
		waitGone(t, a, id)
	}

	for _, name := range []string{
		"alice.mine", "'alice.mine'", "../alice.mine",
		"mine\x1b[2J", "mine\x07", "mine\u200b", "ｍｉｎｅ", "mіne", // Cyrillic i
		"mine\xff", strings.Repeat("m", 200), "-mine", "",
	} {
		s, err := bob.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		var errOut strings.Builder
		s.Stderr = &errOut
		err = s.Run("bot " + name)
		s.Close()
		var ee *gossh.ExitError
		if !errors.As(err, &ee) || ee.ExitStatus() == 0 {
			t.Errorf("bot %q: %v, want refused; stderr %q", name, err, errOut.String())
			continue
		}
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], "refused") || !engine.IsSafeText(lines[0]) || !utf8.ValidString(lines[0]) {
			t.Errorf("bot %q: stderr %q, want one safe line saying refused", name, errOut.String())
		}
	}
	// bob's own Lua upload's name (put in the store as submit would,
	// without its check) is not a bot's.
	if _, err := a.store.Put("bob", "luaone", []byte(`return { name = "L", run = function() end }`)); err != nil {
		t.Fatal(err)
	}
	var errOut strings.Builder
	s, err := bob.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	s.Stderr = &errOut
	err = s.Run("bot luaone")
	s.Close()
	var ee *gossh.ExitError
	if !errors.As(err, &ee) || ee.ExitStatus() != 2 || !strings.Contains(errOut.String(), "uploaded Lua player") {
		t.Errorf("bot named as bob's upload: %v, stderr %q", err, errOut.String())
	}
	for _, id := range a.bots.ids() {
		if strings.HasPrefix(id, "bob.") && id != "bob.mine" && id != "bob.alices-mine" {
			t.Errorf("a refused name left a record: %s", id)
		}
	}
}

// hostileMany: one user opens 50 bot connections at once; the per-user
// cap takes the first ones and refuses the rest with one line each, and
// another user's bot plays a battle meanwhile.
func hostileMany(t *testing.T, a *serveArena, addr string) {
	other := sshClient(t, addr, "dave")
	db := startScript(t, other, "steady", botScript{ready: `{"type":"ready","name":"Steady"}`})
	// One key, several connections: serve.channels_per_connection caps
	// the sessions of one.
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	var clients []*gossh.Client
	for range 6 {
		c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "mallory", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	const n = 50
	type outcome struct {
		status int
		stderr string
	}
	results := make(chan outcome, n)
	var sessions []*gossh.Session
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := clients[i%len(clients)].NewSession()
			if err != nil {
				results <- outcome{-1, err.Error()}
				return
			}
			mu.Lock()
			sessions = append(sessions, s)
			mu.Unlock()
			var errOut syncLog
			s.Stderr = &errOut
			s.StdinPipe() // open, silent: a connected bot stays connected
			s.StdoutPipe()
			if err := s.Start(fmt.Sprintf("bot m%d", i%3)); err != nil {
				results <- outcome{-1, err.Error()}
				return
			}
			done := make(chan error, 1)
			go func() { done <- s.Wait() }()
			select {
			case err := <-done:
				var ee *gossh.ExitError
				if errors.As(err, &ee) {
					results <- outcome{ee.ExitStatus(), errOut.String()}
				} else {
					results <- outcome{-1, fmt.Sprint(err, errOut.String())}
				}
			case <-time.After(3 * time.Second):
				results <- outcome{0, errOut.String()} // still connected
			}
		}()
	}
	// Meanwhile dave's bot plays a whole battle.
	res := hostileBattle(t, a, "dave.steady")
	if res.Final.Round != hostileRounds || res.Final.Teams[0].Retired.Reason != "" {
		t.Errorf("dave's bot beside 50 connections of mallory: round %d, retired %+v", res.Final.Round, res.Final.Teams[0].Retired)
	}
	wg.Wait()
	close(results)
	connected, refused := 0, 0
	for r := range results {
		switch {
		case r.status == 0 && strings.Contains(r.stderr, "connected"):
			connected++
		case r.status != 0 && strings.Count(r.stderr, "refused") == 1 && strings.Contains(r.stderr, "serve.bot_connections_per_user"):
			refused++
		default:
			t.Errorf("a connection: status %d, stderr %q", r.status, r.stderr)
		}
	}
	if want := a.cfg.Serve.BotConnectionsPerUser; connected != want || refused != n-want {
		t.Errorf("%d connected and %d refused, want %d and %d", connected, refused, want, n-want)
	}
	for _, s := range sessions {
		s.Close()
	}
	db.s.Close()
	<-db.done
	for i := range 3 {
		waitGone(t, a, fmt.Sprintf("mallory.m%d", i))
	}
	waitGone(t, a, "dave.steady")
}
