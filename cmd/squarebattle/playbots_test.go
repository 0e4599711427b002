package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/tui"
)

// TestPlayBots: the terminal UI's source lists the .bot files of the
// scripts folder (of a game's folder, for that game) and play's --bot
// flags beside the Lua players, a broken .bot file with why; a battle it
// starts fields each bot as run does, under the name the bot gave in
// ready, with what it writes to standard error in its log, and a bot that
// fails is retired with why.
func TestPlayBots(t *testing.T) {
	bin := refbotPath(t)
	dir := filepath.Join(t.TempDir(), "scripts")
	copyShippedFS(t, dir)
	for name, text := range map[string]string{
		"ref.bot":       "command: " + bin + " -name \"Ref Bot\"\nname: Listed Ref\n",
		"typo.bot":      "command: " + bin + "\ntransprt: tcp\n",
		"snake/ref.bot": "command: " + bin + " -name \"Snake Ref\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Default()
	cfg.Scripts, cfg.Isolation.Mode = dir, config.IsolationNone
	cfg.Bots.InitMS, cfg.Bots.RoundMS = 30000, 10000
	cat, err := loadCatalog(cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := newPlaySource(cfg, cat, nil, nil)
	src.flagBots = []*bot.Spec{{ID: "bot1", File: "--bot", Command: []string{bin, "-name", "Flag Bot", "-fault", "crash", "-at", "2"}, Transport: process.Stdio}}

	for _, tc := range []struct {
		game    string
		entries []string // ids the lobby lists among the starting players
		broken  string   // an entry that cannot be picked, with its problem
		players []string
		names   []string // the teams' names once the battle started
		retired int      // the team a crash retires, or -1
	}{
		{game: "", entries: []string{"explorer", "ref", "bot1"}, broken: `typo.bot:2: unknown key "transprt"`,
			players: []string{"explorer", "ref", "bot1"}, names: []string{"Explorer", "Ref Bot", "Flag Bot"}, retired: 2},
		{game: "snake", entries: []string{"hungry", "ref", "bot1"},
			players: []string{"hungry", "ref"}, names: []string{"Hungry", "Snake Ref"}, retired: -1},
	} {
		t.Run("game="+tc.game, func(t *testing.T) {
			var ids []string
			broken := ""
			for _, e := range src.GameEntries(tc.game) {
				if e.Starting() {
					ids = append(ids, e.ID)
				} else if strings.HasSuffix(e.File, ".bot") {
					broken = e.Problem
				}
			}
			for _, id := range tc.entries {
				if !slices.Contains(ids, id) {
					t.Errorf("the lobby lists %q, not %q", ids, id)
				}
			}
			if !strings.Contains(broken, tc.broken) || (tc.broken == "") != (broken == "") {
				t.Errorf("the broken .bot file is listed with %q, want %q", broken, tc.broken)
			}
			b, err := src.NewBattle(tui.Setup{Game: tc.game, Players: tc.players, Size: 12, Rounds: 120, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			s := b.Snapshot()
			for i, want := range tc.names {
				if got := s.Teams[i].Player.Name; got != want {
					t.Errorf("team %d is called %q, want %q", i, got, want)
				}
			}
			b.Recorder()
			deadline := time.Now().Add(time.Minute)
			for b.Step() && time.Now().Before(deadline) {
			}
			s = b.Snapshot()
			for i, team := range s.Teams {
				if retired := team.Retired.Round > 0; retired != (i == tc.retired) {
					t.Errorf("team %d retired %+v; want retired: %v", i, team.Retired, i == tc.retired)
				}
			}
			logs := b.(tui.Logger).Logs()
			if !strings.Contains(strings.Join(logs[1], "\n"), "refbot: team 1 of") {
				t.Errorf("the bot's log tab lacks what it wrote to standard error: %q", logs[1])
			}
			if tc.retired >= 0 && !strings.Contains(strings.Join(logs[tc.retired], "\n"), "panic: refbot: crashing as asked") {
				t.Errorf("the crashed bot's log lacks its last words: %q", logs[tc.retired])
			}
		})
	}
}
