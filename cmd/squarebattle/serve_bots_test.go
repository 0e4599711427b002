package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/remote"
	"github.com/squarebattle/squarebattle/engine/ladder"
)

// remoteBot is a bot over `ssh HOST bot NAME`, in this process: it says
// ready to every hello and waits with every square, battle after battle.
type remoteBot struct {
	s      *gossh.Session
	hellos atomic.Int64
	rounds atomic.Int64
	// roundMS is the round clock the last hello stated.
	roundMS atomic.Int64
	done    chan struct{}
	stderr  syncLog
}

func connectBot(t *testing.T, c *gossh.Client, name string, stopAfterRounds int64) *remoteBot {
	t.Helper()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	in, _ := s.StdinPipe()
	out, _ := s.StdoutPipe()
	b := &remoteBot{s: s, done: make(chan struct{})}
	s.Stderr = &b.stderr
	if err := s.Start("bot " + name); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(b.done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 1<<21)
		for sc.Scan() {
			var m struct {
				Type  string `json:"type"`
				Round int    `json:"round"`
				Time  struct {
					RoundMS int64 `json:"round_ms"`
				} `json:"time"`
			}
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				continue
			}
			switch m.Type {
			case "hello":
				b.roundMS.Store(m.Time.RoundMS)
				b.hellos.Add(1)
				io.WriteString(in, `{"type":"ready","name":"Remote Waiter"}`+"\n")
			case "round":
				b.rounds.Add(1)
				// By the battle's own round: a team out early in one
				// battle gets no more rounds there, so a count across
				// battles could end in the next battle's first rounds.
				if stopAfterRounds > 0 && int64(m.Round) >= stopAfterRounds {
					s.Close() // gone in the middle of a battle
					return
				}
				fmt.Fprintf(in, `{"type":"actions","round":%d,"actions":[]}`+"\n", m.Round)
			}
		}
	}()
	return b
}

// TestServeRemoteBot: a bot connected with `ssh HOST bot NAME` plays
// ladder battles against the Lua players, one at a time over its
// connection; gone in the middle of a battle, only its team is retired
// and the battle finishes and counts; away, it keeps its place and is not
// planned; back, it plays again. Another user's bot of the same NAME is
// another player; a bot cannot take the name of its user's Lua upload.
func TestServeRemoteBot(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ladder battles")
	}
	addr, a := startLadderArena(t, ladderConfig(t))
	ctx := context.Background()
	l := a.ladder.l
	alice := sshClient(t, addr, "alice")

	b := connectBot(t, alice, "waiter", 0)
	deadline := time.Now().Add(2 * time.Minute)
	for b.hellos.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if b.hellos.Load() < 3 {
		t.Fatalf("the bot was greeted %d times in 2 minutes; stderr %q", b.hellos.Load(), b.stderr.String())
	}
	p, err := l.PlayerByName(ctx, "", "alice.waiter")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { p, _ = l.Player(ctx, p.ID); return p.Battles >= 2 }, "two rated battles of the bot")
	b.s.Close()
	<-b.done

	// Away: not planned; its place kept. A battle it was in when it left
	// still ends and counts (a loaded machine may take a while): wait for
	// that first, then nothing more may be played with it.
	waitFor(t, func() bool {
		bs, _ := l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Playing, ladder.Played}})
		return len(bs) == 0
	}, "the battles the bot was in when it left, ended and rated")
	time.Sleep(300 * time.Millisecond)
	before, _ := l.Player(ctx, p.ID)
	time.Sleep(time.Second)
	after, _ := l.Player(ctx, p.ID)
	if after.Retired || after.Battles != before.Battles {
		t.Errorf("away: retired %v, battles %d then %d", after.Retired, before.Battles, after.Battles)
	}

	// Back, then gone in the middle of a battle: that battle finishes,
	// with the bot's team retired and the others playing on.
	// (Battles planned with it before it left, and not played then, may
	// be the ones it plays on its return: what counts is what was not
	// done yet.)
	doneBefore := map[ladder.BattleID]bool{}
	bs, _ := l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Done}})
	for _, x := range bs {
		doneBefore[x.ID] = true
	}
	b = connectBot(t, alice, "waiter", 5)
	<-b.done
	var mid ladder.Battle
	var problem string
	seen := map[ladder.BattleID]string{} // the bot's battles since, as they ended
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the bot's battles since it came back: %v", seen)
		}
	})
	waitFor(t, func() bool {
		bs, _ := l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Done}})
		for _, x := range bs {
			if doneBefore[x.ID] {
				continue
			}
			for _, s := range x.Seats {
				if s.Player == p.ID && strings.Contains(s.Result.Problem, "its connection ended") {
					mid, problem = x, s.Result.Problem
					return true
				}
				if s.Player == p.ID {
					seen[x.ID] = fmt.Sprintf("%d rounds, problem %q", x.Rounds, s.Result.Problem)
				}
			}
		}
		return false
	}, "the battle the bot left, finished with its team out")
	t.Logf("battle %d, %d rounds; the bot's team: %s", mid.ID, mid.Rounds, problem)
	if mid.Rounds < 5 {
		t.Errorf("the battle the bot left ended in round %d", mid.Rounds)
	}

	// The same NAME from another user is another player; a Lua upload's
	// name is not a bot's.
	bob := sshClient(t, addr, "bob")
	b2 := connectBot(t, bob, "waiter", 0)
	waitFor(t, func() bool { _, err := l.PlayerByName(ctx, "", "bob.waiter"); return err == nil }, "bob's bot on the ladder")
	b2.s.Close()
	if _, errOut, status := sshRun(t, alice, "submit luaone", []byte(hunterSrc)); status != 0 {
		t.Fatalf("submit: %d %s", status, errOut)
	}
	if _, errOut, status := sshRun(t, alice, "bot luaone", nil); status == 0 || !strings.Contains(errOut, "uploaded Lua player") {
		t.Errorf("a bot named as an upload: %d %q", status, errOut)
	}
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 2 minutes", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestServeBotExitStatus: a bot's session ends with an exit status that
// says whose end it was: 0 when the bot's stdin ended (it left), 1 when
// the server let it go for what it did (lines while no battle asked it
// anything, a line past bot.MaxLine), with the note saying why.
func TestServeBotExitStatus(t *testing.T) {
	c := sshClient(t, startArena(t, serveConfig(t)), "alice")
	flood := strings.Repeat(`{"type":"actions","round":0,"actions":[]}`+"\n", remote.MaxIdleLines+10)
	tests := []struct {
		name   string
		stdin  string
		status int
		note   string
	}{
		{"stdin ends", "", exitOK, "connected"},
		{"lines while no battle asks", flood, exitFailure, "no battle asked it anything"},
		{"a line past the limit", strings.Repeat("x", bot.MaxLine+100), exitFailure, "too long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, status := sshRun(t, c, "bot b", []byte(tt.stdin))
			if status != tt.status || !strings.Contains(errOut, tt.note) {
				t.Errorf("status %d, stderr %q; want %d and %q", status, errOut, tt.status, tt.note)
			}
		})
	}
}
