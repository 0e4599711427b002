package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTournamentBotNames: the standings of a tournament and of a
// challenge (text and --json) call a bot by the name it gave in ready,
// not by its id (bot1) or the name listed before it ran.
func TestTournamentBotNames(t *testing.T) {
	bin := refbotPath(t)
	scripts := botScripts(t, map[string]string{"ref.bot": "command: " + bin + " -name \"Said Name\"\nname: Listed Name\n"})
	for _, tc := range []struct {
		name string
		args []string
		// names reads the players' names from the --json output.
		names func(t *testing.T, out string) []string
	}{
		{"tournament", []string{"tournament", "--isolation", "none", "--size", "10", "--rounds", "20", "--games", "1", "explorer", "ref", "--bot", bin + " -name 'Flag Bot'"},
			func(t *testing.T, out string) []string {
				var got struct {
					Players []struct{ Player struct{ Name string } }
				}
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				var names []string
				for _, p := range got.Players {
					names = append(names, p.Player.Name)
				}
				return names
			}},
		{"challenge", []string{"tournament", "challenge", "--isolation", "none", "--game", "snake", "--size", "10", "--option", "games=1", "hungry", "--bot", bin + " -name 'Flag Bot'"},
			func(t *testing.T, out string) []string {
				var got struct{ Standings []struct{ Name string } }
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%v: %s", err, out)
				}
				var names []string
				for _, p := range got.Standings {
					names = append(names, p.Name)
				}
				return names
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := 1 // the command's words, then the scripts folder
			if tc.name == "challenge" {
				cmd = 2
			}
			args := append(append(append([]string(nil), tc.args[:cmd]...), scripts...), tc.args[cmd:]...)
			code, out, errOut := runMain(t, append(args, "--seed", "3")...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "Flag Bot") || strings.Contains(out, "bot1 ") || strings.Contains(out, "Listed Name") {
				t.Errorf("the standings do not call the bots by their ready names:\n%s", out)
			}
			if tc.name == "tournament" && !strings.Contains(out, "Said Name") {
				t.Errorf("the .bot file's bot is not called by its ready name:\n%s", out)
			}
			code, out, errOut = runMain(t, append(args, "--seed", "3", "--json")...)
			if code != 0 {
				t.Fatalf("--json: exit %d: %s", code, errOut)
			}
			names := strings.Join(tc.names(t, out), ",")
			if !strings.Contains(names, "Flag Bot") || strings.Contains(names, "bot1") || strings.Contains(names, "Listed Name") {
				t.Errorf("--json names the players %s", names)
			}
		})
	}
}
