package ssh

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// saveReplay saves a short replay of a shipped player (explorer, team
// 0) and alice's upload (alice.hunter, team 1), each printing and failing
// with its secret every round, as the hall would at ID.sbr, and notes
// its owner unless legacy.
func saveReplay(t *testing.T, st *Store, id string, featured bool, ownerKey string, legacy bool) {
	t.Helper()
	h := replay.Header{Program: "test", Classes: []replay.Class{{ID: "explorer", File: "explorer.lua", SHA256: "00"}, {ID: "alice.hunter", File: "alice.hunter.lua", SHA256: "11"}},
		Players: []replay.Player{{Team: 0, Class: 0, Name: "Explorer"}, {Team: 1, Class: 1, Name: "Hunter"}}}
	start := &engine.Snapshot{Size: 4, Rounds: 10, Seed: 1, Winner: -1, Cells: make([]int32, 16), Classes: []string{"explorer", "alice.hunter"},
		Teams: []engine.TeamView{{Team: 0, Player: engine.Player{Class: 0, Name: "Explorer"}}, {Team: 1, Player: engine.Player{Class: 1, Name: "Hunter"}}}}
	for i := range start.Cells {
		start.Cells[i] = -1
	}
	start.Cells[0], start.Cells[15] = 0, 1
	start.Teams[0].Stats.Squares, start.Teams[1].Stats.Squares = 1, 1
	file := filepath.Join(st.ReplayDir(), id+".sbr")
	f, err := replay.Create(file, h, start)
	if err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 3; r++ {
		l := engine.RoundLog{Round: r}
		for team, who := range []string{"explorer", "alice"} {
			l.Printed = append(l.Printed, engine.TeamLines{Team: team, Lines: []string{fmt.Sprintf("plan of %s, round %d", who, r)}})
			l.Problems = append(l.Problems, engine.Problem{Round: r, Team: team, Class: engine.ClassID(team), Square: -1, Kind: engine.FaultError, Message: "secret of " + who})
		}
		l.Faults = []engine.FaultEvent{{Team: 0, Errors: 1}, {Team: 1, Errors: 1}}
		if err := f.Round(&l); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if !legacy {
		if err := st.NoteReplay(file, featured, "alice", ownerKey); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReplayDoor: a featured battle's replay is anybody's, a private
// one's its owner's (by key) and the admins', one without a recorded
// owner the admins' only; whoever gets one gets the print log and problem
// messages only of the shipped players and their own uploads, by get, by
// replay ID and in the list; the copy still reads as a replay.
func TestReplayDoor(t *testing.T) {
	aliceKey, bobKey, adminKey := newKey(t), newKey(t), newKey(t)
	ts := startServer(t, func(o *Options) {
		o.Admins = map[string]bool{Fingerprint(adminKey.PublicKey()): true}
	})
	if _, err := ts.store.Claim(Fingerprint(aliceKey.PublicKey()), "alice"); err != nil {
		t.Fatal(err)
	}
	saveReplay(t, ts.store, "20260101-000000-1", true, "", false)
	saveReplay(t, ts.store, "20260101-000000-2", false, Fingerprint(aliceKey.PublicKey()), false)
	saveReplay(t, ts.store, "20260101-000000-3", false, "", true)
	clients := map[string]*gossh.Client{
		"anonymous":    dial(t, ts.addr, "guest", nil),
		"alice":        dial(t, ts.addr, "alice", aliceKey),
		"alice as bob": dial(t, ts.addr, "bob", aliceKey),
		"bob":          dial(t, ts.addr, "bob", bobKey),
		"bob as alice": dial(t, ts.addr, "alice", bobKey),
		"admin":        dial(t, ts.addr, "root", adminKey),
	}
	tests := []struct {
		who, replay string
		gets        bool
		aliceWords  bool // alice's print log and messages in what it gets
	}{
		{"anonymous", "1", true, false},
		{"bob", "1", true, false},
		{"bob as alice", "1", true, false},
		{"alice", "1", true, true},
		{"alice as bob", "1", true, true},
		{"anonymous", "2", false, false},
		{"bob", "2", false, false},
		{"bob as alice", "2", false, false},
		{"alice", "2", true, true},
		{"admin", "2", true, false},
		{"anonymous", "3", false, false},
		{"alice", "3", false, false},
		{"admin", "3", true, false},
		{"anonymous", "../users", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.who+" gets "+tt.replay, func(t *testing.T) {
			c := clients[tt.who]
			rid := tt.replay
			if !strings.Contains(rid, "/") {
				rid = "20260101-000000-" + rid
			}
			out, e, st := run(t, c, "get "+rid, nil)
			if !tt.gets {
				if st != 2 || out != "" || !strings.Contains(e, "replay") {
					t.Fatalf("status %d, %d bytes, stderr %q; want refused", st, len(out), e)
				}
				if list, _, _ := run(t, c, "replays", nil); strings.Contains(list, rid) {
					t.Errorf("the list shows %s:\n%s", rid, list)
				}
				return
			}
			if st != 0 {
				t.Fatalf("status %d, stderr %q", st, e)
			}
			rep, err := replay.Read(strings.NewReader(out), rid)
			if err != nil || rep.Damage != nil || rep.Timeline.Last() != 3 {
				t.Fatalf("what get gave reads: %v %v", err, rep)
			}
			text := words(rep)
			if !strings.Contains(text, "plan of explorer") || !strings.Contains(text, "secret of explorer") {
				t.Errorf("the shipped player's words are missing: %s", text)
			}
			if got := strings.Contains(text, "alice"); got != tt.aliceWords {
				t.Errorf("alice's words in it: %v, want %v: %s", got, tt.aliceWords, text)
			}
			if list, _, _ := run(t, c, "replays", nil); !strings.Contains(list, rid) {
				t.Errorf("the list lacks %s:\n%s", rid, list)
			}
		})
	}
	// The replay screen opens the same copy.
	tm := openTerminal(t, clients["bob"], "xterm", 80, 24, "replay 20260101-000000-2")
	tm.waitFor(t, "no replay 20260101-000000-2")
	if st := tm.wait(t); st != 2 {
		t.Fatalf("bob's replay of alice's private battle: status %d", st)
	}
	r, _, err := ts.openReplayFor("20260101-000000-1", identity{})
	if err != nil || strings.Contains(words(r), "alice") {
		t.Fatalf("the screen's copy for a stranger: %v, %s", err, words(r))
	}
}

// words is everything a replay's teams printed or said in problems.
func words(r *replay.Replay) string {
	var b strings.Builder
	for round := 1; round <= r.Timeline.Last(); round++ {
		l, _ := r.Timeline.Log(round)
		for _, p := range l.Printed {
			b.WriteString(strings.Join(p.Lines, "|") + "|")
		}
		for _, p := range l.Problems {
			b.WriteString(p.Message + "|")
		}
	}
	return b.String()
}
