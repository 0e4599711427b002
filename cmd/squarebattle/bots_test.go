package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// refbot builds the reference bot (engine/bot/testdata/refbot) once.
var refbot = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "refbot")
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, "refbot")
	if b, err := exec.Command("go", "build", "-o", out, "../../engine/bot/testdata/refbot").CombinedOutput(); err != nil {
		return "", errors.New(string(b))
	}
	return out, nil
})

// botScripts is a scripts folder holding the shipped players and games
// and the .bot files given (name → content), with a configuration that
// gives bots a generous clock (a loaded machine must not make them late)
// and replication a short rest. It returns the arguments that point a
// command at both.
func botScripts(t *testing.T, bots map[string]string) []string {
	t.Helper()
	dir := t.TempDir()
	scripts := filepath.Join(dir, "scripts")
	copyShippedFS(t, scripts)
	for name, text := range bots {
		if err := os.WriteFile(filepath.Join(scripts, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "squarebattle.yaml")
	yaml := "rules:\n  replicate_rounds: 3\nbots:\n  init_ms: 30000\n  round_ms: 10000\n"
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--scripts", scripts, "--config", cfg}
}

// botBattle is what run --json says of a battle's teams.
type botBattle struct {
	Teams []struct {
		Player           string
		Timeouts, Errors int
	}
}

// recordBotBattle plays run --json --seed 4 with args and reads its
// result; it also returns the output, for messages.
func recordBotBattle(t *testing.T, args ...string) (botBattle, string) {
	t.Helper()
	code, out, errOut := runMain(t, append([]string{"run", "--json", "--seed", "4"}, args...)...)
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	var res botBattle
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("run --json: %v: %s", err, out)
	}
	return res, out
}

// verifyBotReplay runs replay --verify, which starts no bot, on file and
// wants it identical.
func verifyBotReplay(t *testing.T, scripts []string, file string) {
	t.Helper()
	code, out, errOut := runMain(t, append([]string{"replay", "--verify"}, append(scripts, file)...)...)
	if code != 0 || !strings.HasPrefix(out, "identical") {
		t.Fatalf("verify: exit %d: %s%s", code, out, errOut)
	}
}

func refbotPath(t *testing.T) string {
	t.Helper()
	p, err := refbot()
	if err != nil {
		t.Fatalf("building refbot: %v", err)
	}
	return p
}

// TestBotBattles: the reference bot plays SquareBattle (a .bot file over
// stdio and over TCP, and a --bot command, beside Lua players in worker
// processes) and every shipped rule mod (Lua in this process, to keep the
// test short); each battle records, and replay --verify, which starts no
// bot, says identical.
func TestBotBattles(t *testing.T) {
	bin := refbotPath(t)
	scripts := botScripts(t, map[string]string{
		"ref.bot":       "command: " + bin + "\nname: Ref\n",
		"reftcp.bot":    "command: " + bin + " -name \"TCP Ref\"\ntransport: tcp\n",
		"ref2.bot":      "command: " + bin + " -protocol 2 -name \"Ref Two\"\n",
		"ref2tcp.bot":   "command: " + bin + " -protocol 2 -name \"TCP Two\"\ntransport: tcp\n",
		"snake/ref.bot": "command: " + bin + "\n",
	})
	for _, tc := range []struct {
		name string
		args []string
		bots []string // the display names of the bot teams
	}{
		{"squarebattle", []string{"--size", "14", "--rounds", "120", "ref", "explorer", "reftcp", "--bot", bin + " -name Third"}, []string{"Ref Bot", "TCP Ref", "Third"}},
		// Protocol 2 beside protocol 1 (the same program, choosing), over
		// stdio and TCP, one bot asking for a full state, Lua in worker
		// processes.
		{"protocol2", []string{"--size", "16", "--rounds", "150", "ref2", "explorer", "ref", "ref2tcp", "--bot", bin + " -protocol 2 -name Fifth -fault resync -at 40"}, []string{"Ref Two", "Ref Bot", "TCP Two", "Fifth"}},
		{"squarebattle-lua", []string{"--isolation", "none", "--game", "squarebattle-lua", "--size", "12", "--rounds", "60", "wanderer", "--bot", bin}, []string{"Ref Bot"}},
		{"snake", []string{"--isolation", "none", "--game", "snake", "--option", "games=2", "hungry", "ref"}, []string{"Ref Bot"}},
		{"paint", []string{"--isolation", "none", "--game", "paint", "--rounds", "60", "greedy", "--bot", bin}, []string{"Ref Bot"}},
		{"orbs", []string{"--isolation", "none", "--game", "orbs", "--rounds", "40", "explorer", "--bot", bin}, []string{"Ref Bot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "battle.sbr")
			res, out := recordBotBattle(t, append(append([]string{"--record", file}, scripts...), tc.args...)...)
			var names []string
			for _, team := range res.Teams {
				if team.Timeouts+team.Errors != 0 {
					t.Errorf("team %s has faults: %s", team.Player, out)
				}
				for _, b := range tc.bots {
					if team.Player == b {
						names = append(names, b)
					}
				}
			}
			if strings.Join(names, ",") != strings.Join(tc.bots, ",") {
				t.Errorf("bot teams %v, want %v: %s", names, tc.bots, out)
			}
			verifyBotReplay(t, scripts, file)
		})
	}
}

// TestBotInputErrors: a bad .bot file or --bot flag is a clear one-line
// error with exit status 2, naming the file and line; a bot that cannot
// start costs its team, not the battle.
func TestBotInputErrors(t *testing.T) {
	bin := refbotPath(t)
	scripts := botScripts(t, map[string]string{
		"typo.bot":     "command: " + bin + "\ntransprt: tcp\n",
		"ghost.bot":    "command: /nonexistent/bot\n",
		"explorer.bot": "command: " + bin + "\n",
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown key", []string{"typo", "explorer"}, 2, `typo.bot:2: unknown key "transprt"`},
		{"bad quoting", []string{"explorer", "--bot", bin + " 'x"}, 2, `--bot "` + bin + ` 'x": an unclosed ' quote`},
		{"both a script and a bot", []string{"explorer", "wanderer"}, 2, `player "explorer" is both`},
		{"cannot start", []string{"wanderer", "ghost"}, 0, "not ready: cannot start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(t, append(append([]string{"run", "--seed", "2", "--size", "10", "--rounds", "5"}, scripts...), tc.args...)...)
			if code != tc.code || !strings.Contains(out+errOut, tc.want) {
				t.Fatalf("exit %d, want %d saying %q:\n%s%s", code, tc.code, tc.want, out, errOut)
			}
		})
	}
}

// TestBotTournament: bots play tournaments beside Lua players, each battle
// with processes of its own, and every battle's replay verifies.
func TestBotTournament(t *testing.T) {
	bin := refbotPath(t)
	scripts := botScripts(t, map[string]string{"ref.bot": "command: " + bin + "\n"})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"squarebattle", []string{"--isolation", "none", "--size", "12", "--rounds", "40", "explorer", "wanderer", "ref"}},
		{"snake", []string{"--isolation", "none", "--game", "snake", "--option", "games=1", "hungry", "--bot", bin}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append(append([]string{"tournament", "--quiet", "--json", "--seed", "3", "--games", "1", "--record-dir", dir}, scripts...), tc.args...)
			code, out, errOut := runMain(t, args...)
			if code != 0 || !strings.Contains(strings.ToLower(out), `"ref`) && !strings.Contains(out, `"bot1"`) {
				t.Fatalf("tournament: exit %d: %s%s", code, out, errOut)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*.sbr"))
			if len(files) == 0 {
				t.Fatal("no replays written")
			}
			for _, f := range files {
				code, out, errOut := runMain(t, append([]string{"replay", "--verify"}, append(scripts, f)...)...)
				if code != 0 || !strings.HasPrefix(out, "identical") {
					t.Fatalf("verify %s: exit %d: %s%s", filepath.Base(f), code, out, errOut)
				}
			}
		})
	}
}

// TestBotPlayersList: players lists the .bot files with their commands,
// and the broken ones with the line that is wrong.
func TestBotPlayersList(t *testing.T) {
	scripts := botScripts(t, map[string]string{"ref.bot": "command: refbot -x\nname: Ref\n", "typo.bot": "command: x\nnope\n"})
	code, out, errOut := runMain(t, append([]string{"players"}, scripts...)...)
	if code != 0 || !strings.Contains(out, "Ref") || !strings.Contains(out, "bot: refbot -x") || !strings.Contains(out, `typo.bot:2: "nope" is not key: value`) {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
}

// TestBotFaultsInMods: in every shipped rule mod, a bot that breaks the
// protocol (a line that is not JSON, more answers than calls, a line
// over the bound, a crash) costs its own team only: its faults are
// counted, the Lua team beside it has none, and the battle records and
// verifies identical, the faults included. (Late answers are timed:
// engine/bot's TestCallsFaults covers them with a clock of its own.)
func TestBotFaultsInMods(t *testing.T) {
	bin := refbotPath(t)
	scripts := botScripts(t, nil)
	games := []struct{ game, player string }{{"snake", "hungry"}, {"paint", "greedy"}, {"orbs", "explorer"}}
	for _, g := range games {
		for _, fault := range []string{"malformed", "toomany", "huge", "crash"} {
			t.Run(g.game+"/"+fault, func(t *testing.T) {
				file := filepath.Join(t.TempDir(), "battle.sbr")
				res, out := recordBotBattle(t, append(append([]string{"--record", file, "--isolation", "none"}, scripts...),
					"--game", g.game, "--rounds", "8", g.player, "--bot", bin+" -fault "+fault+" -at 3")...)
				if len(res.Teams) != 2 {
					t.Fatalf("%d teams: %s", len(res.Teams), out)
				}
				if lua := res.Teams[0]; lua.Timeouts+lua.Errors != 0 {
					t.Errorf("the Lua team suffered: %+v", lua)
				}
				if bot := res.Teams[1]; bot.Errors == 0 || bot.Timeouts != 0 {
					t.Errorf("the bot's team: %+v, want errors and no timeouts", bot)
				}
				verifyBotReplay(t, scripts, file)
			})
		}
	}
}
