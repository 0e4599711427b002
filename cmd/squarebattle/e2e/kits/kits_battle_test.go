//go:build unix

package kits

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// kitConfig writes a configuration whose bot deadlines are generous: the
// kits answer in a millisecond or two, but the tests share a loaded
// machine, and what they check is the kits' play, not their speed.
func kitConfig(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "squarebattle.yaml")
	yaml := "bots:\n  init_ms: 60000\n  round_ms: 20000\n  bank_ms: 0\n"
	if err := os.WriteFile(file, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// botCommand writes argv as a --bot command (each word single-quoted, so
// a path with spaces stays one word).
func botCommand(argv []string) string {
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

// kitNames are the names the kits' bots answer in ready.
var kitNames = map[string]map[kitGame]string{
	"python": {kitSquares: "Python Squares", kitSnake: "Python Snake"},
	"node":   {kitSquares: "Node Squares", kitSnake: "Node Snake"},
	"go":     {kitSquares: "Go Squares", kitSnake: "Go Snake"},
}

// TestKitsBattle plays each kit's bots against a Lua player in real
// battles: SquareBattle against the Explorer, and a short snake match
// against Hungry. The bot says ready under its name, plays to the end
// without an error or a timeout, and gets somewhere: births in
// SquareBattle, pellets eaten in snake.
func TestKitsBattle(t *testing.T) {
	cfg := kitConfig(t)
	games := []struct {
		game kitGame
		args []string
		// progress is the bot team's births, or the score column of that name.
		progress string
	}{
		{kitSquares, []string{"--seed", "5", "--size", "16", "--rounds", "300", "explorer"}, "births"},
		{kitSnake, []string{"--game", "snake", "--seed", "3", "--size", "12", "--option", "games=3", "--rounds", "3000", "hungry"}, "pellets"},
	}
	for _, g := range games {
		for _, k := range kits {
			t.Run(string(g.game)+"/"+k.lang, func(t *testing.T) {
				needKit(t, k)
				args := append([]string{"run", "--config", cfg, "--json"}, g.args...)
				code, out, errOut := harness.Exec(t, append(args, "--bot", botCommand(k.argv(t, g.game)))...)
				if code != 0 {
					t.Fatalf("run: exit %d: %s", code, errOut)
				}
				// What battleJSON and modJSON share, and what each adds.
				var got struct {
					Columns []string
					Teams   []struct {
						Player                   string
						Births, Errors, Timeouts int
						Values                   []int
					}
				}
				if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Teams) != 2 {
					t.Fatalf("want two teams: %v: %s", err, out)
				}
				team := got.Teams[1]
				progress := team.Births
				if i := slices.Index(got.Columns, g.progress); i >= 0 && i < len(team.Values) {
					progress = team.Values[i]
				}
				if want := kitNames[k.lang][g.game]; team.Player != want || team.Errors != 0 || team.Timeouts != 0 || progress <= 0 {
					t.Errorf("the bot's team: %+v; want the name %q, no errors or timeouts, and %s\n%s\nstderr: %s",
						team, want, g.progress, out, errOut)
				}
			})
		}
	}
}

// TestKitsMixedBattle records a battle of two Lua teams, the Python kit
// (a --bot over stdio) and the Go kit (a .bot file in the scripts folder,
// over TCP), and requires replay --verify to find it identical without
// running either bot; and does the same for snake with the Node and
// Python kits.
func TestKitsMixedBattle(t *testing.T) {
	byLang := map[string]kit{}
	for _, k := range kits {
		byLang[k.lang] = k
	}
	cfg := kitConfig(t)
	tests := []struct {
		name string
		game string   // "" for SquareBattle
		args []string // players and flags
		lua  int      // how many Lua teams come first
		// names are the players' names, in team order: a bot's is the one
		// it gave in ready.
		names []string
		kit   kitGame  // the kits' bot that plays
		bots  []string // the kits added with --bot, in order
		// dotBot, when set, is the kit put in the scripts folder as
		// kitbot.bot with transport tcp.
		dotBot string
	}{
		{
			name: "squarebattle", args: []string{"--seed", "9", "--size", "20", "--rounds", "250", "explorer", "wanderer", "kitbot"},
			lua: 2, kit: kitSquares, bots: []string{"python"}, dotBot: "go",
			names: []string{"Explorer", "Wanderer", "Go Squares", "Python Squares"},
		},
		{
			name: "snake", game: "snake", args: []string{"--seed", "4", "--size", "14", "--option", "games=3", "--rounds", "2000", "cautious"},
			lua: 1, kit: kitSnake, bots: []string{"node", "python"},
			names: []string{"Cautious", "Node Snake", "Python Snake"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := harness.ShippedCopy(t)
			record := filepath.Join(t.TempDir(), "mixed.sbr")
			args := []string{"run", "--config", cfg, "--scripts", dir, "--record", record, "--json"}
			if tc.game != "" {
				args = append(args, "--game", tc.game)
			}
			args = append(args, tc.args...)
			if tc.dotBot != "" {
				k := byLang[tc.dotBot]
				needKit(t, k)
				argv := k.argv(t, tc.kit)
				text := "command: " + botCommand(argv) + "\ntransport: tcp\n"
				if err := os.WriteFile(filepath.Join(dir, "kitbot.bot"), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, lang := range tc.bots {
				needKit(t, byLang[lang])
				args = append(args, "--bot", botCommand(byLang[lang].argv(t, tc.kit)))
			}
			code, out, errOut := harness.Exec(t, args...)
			if code != 0 {
				t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
			}
			var played struct {
				Teams []struct{ Errors, Timeouts int }
			}
			if err := json.Unmarshal([]byte(out), &played); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			for i, team := range played.Teams {
				if team.Errors != 0 || team.Timeouts != 0 {
					t.Errorf("team %d had %d errors and %d timeouts\n%s\nstderr: %s", i, team.Errors, team.Timeouts, out, errOut)
				}
			}
			rep, err := replay.Open(record)
			if err != nil {
				t.Fatal(err)
			}
			var outside, names []string
			for _, p := range rep.Header.Players {
				outside, names = append(outside, p.Outside), append(names, p.Name)
			}
			if !slices.Equal(names, tc.names) {
				t.Errorf("the replay's players are %q, want %q", names, tc.names)
			}
			for i, o := range outside {
				if want := map[bool]string{true: "", false: "bot"}[i < tc.lua]; o != want {
					t.Errorf("the replay's players are outside %q; want %d Lua teams, then bots", outside, tc.lua)
					break
				}
			}
			code, out, errOut = harness.Exec(t, "replay", "--config", cfg, "--scripts", dir, "--verify", record)
			if code != 0 || !strings.HasPrefix(out, "identical") {
				t.Fatalf("replay --verify: exit %d\n%s\n%s", code, out, errOut)
			}
		})
	}
}
