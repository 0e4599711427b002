package luabind

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/scripts"

	"github.com/squarebattle/squarebattle/engine"
)

// victim is a well-behaved player: it wanders, replicates now and then and
// keeps count of its own turns in self, which must never be disturbed.
const victim = `return { name = "Victim", run = function(self, team, view)
  self.turns = (self.turns or 0) + 1
  team_memory.total = (team_memory.total or 0) + 1
  if self.turns % 7 == 0 then return REPLICATE, math.random(8), nil, {turns = 0} end
  local d = math.random(8)
  if view[d] == EMPTY then return MOVE, d end
end }`

const idle = `return { name = "Idle", run = function() end }`

// TestHostileScripts fields every script in testdata/hostile in a real
// battle against the shipped Explorer and the victim, and checks that the
// hostile team is charged (timeouts or errors, as its "-- expect:" line
// says) while Explorer's and the victim's battle is exactly the one they play
// against a square that only waits: same rounds, same statistics, same cells.
func TestHostileScripts(t *testing.T) {
	paths, lim := hostileSuite(t, "testdata/hostile")
	opts := engine.Options{Size: 8, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: 3, Workers: 2}
	explorer, err := fs.ReadFile(scripts.FS, "explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	players := []string{"hostile", "explorer", "victim"}

	base := catalogOf(t, map[string]string{"hostile.lua": idle, "explorer.lua": string(explorer), "victim.lua": victim}, lim)
	b, _ := battle(t, base, players, opts)
	want := b.Run()
	// The hooks that only run when a square dies (eliminated) need the
	// waiting team to lose squares in this battle.
	if want.Teams[0].Stats.Deaths == 0 {
		t.Fatalf("the waiting team never dies in the base battle: %+v", want.Teams[0].Stats)
	}

	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".lua"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// "-- expect: timeout|error" on the first line; an optional
			// "-- shown: TEXT" line says what the first problem must contain.
			expect, shown := "", ""
			for _, line := range strings.Split(string(src), "\n") {
				if v, ok := strings.CutPrefix(line, "-- expect: "); ok && expect == "" {
					expect = v
				}
				if v, ok := strings.CutPrefix(line, "-- shown: "); ok {
					shown = v
				}
			}
			cat := catalogOf(t, map[string]string{"hostile.lua": string(src), "explorer.lua": string(explorer), "victim.lua": victim}, lim)
			b, _ := battle(t, cat, players, opts)
			got := b.Run()
			h := got.Teams[0].Stats
			switch expect {
			case "timeout":
				if h.Timeouts == 0 {
					t.Errorf("hostile stats %+v, want timeouts", h)
				}
			case "error":
				if h.Errors == 0 {
					t.Errorf("hostile stats %+v, want errors", h)
				}
			default:
				t.Fatalf("no '-- expect: timeout|error' line")
			}
			for _, p := range append(got.FirstProblems, got.Problems...) {
				if !utf8.ValidString(p.Message) || !engine.IsSafeText(p.Message) {
					t.Errorf("problem message is not one line of text safe to print: %q", p.Message)
				}
			}
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > 512<<20 {
				t.Errorf("the process holds %d MB after the battle", m.HeapAlloc>>20)
			}
			if len(got.FirstProblems) == 0 || got.FirstProblems[0].Team != 0 || !strings.Contains(got.FirstProblems[0].Message, ":") {
				t.Errorf("problems = %+v, want the hostile team's first problem with a position", got.FirstProblems)
			} else if !strings.Contains(got.FirstProblems[0].Message, shown) {
				t.Errorf("shown as %q, want it to contain %q", got.FirstProblems[0].Message, shown)
			} else {
				t.Logf("shown as: %s", got.FirstProblems[0].Message)
			}
			if got.Round != want.Round {
				t.Errorf("the battle ran %d rounds, want %d", got.Round, want.Round)
			}
			for team := 1; team < len(players); team++ {
				if got.Teams[team].Stats != want.Teams[team].Stats {
					t.Errorf("%s's battle changed:\n got %+v\nwant %+v", players[team], got.Teams[team].Stats, want.Teams[team].Stats)
				}
			}
			if !reflect.DeepEqual(got.Cells, want.Cells) {
				t.Errorf("the arena differs from the battle against a waiting square")
			}
		})
	}
}

// TestBrokenScriptsLoad: a script that cannot load is reported with its
// position and left out; the others still load.
func TestBrokenScriptsLoad(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"syntax.lua":   "return { name = 'S', run = function( end }",
		"norun.lua":    "return { name = 'N' }",
		"notable.lua":  "return 42",
		"toplevel.lua": "local x = nil\nx.y = 1\nreturn {}",
		"spinload.lua": "while true do end",
		"badname.lua":  "return { name = {}, run = function() end }",
		"reserved.lua": "local __sb_concat = 1 return { run = function() end }",
		"bytecode.lua": "\x1bLua garbage",
		"good.lua":     "return { name = 'Good', run = function() end }",
		"fragment.lua": "return { run = function() end }",
		"toodeep.lua":  "return " + strings.Repeat("{", 300) + strings.Repeat("}", 300),
		"concatok.lua": "local s = 'a' .. 1 .. 'b' return { name = s, run = function() end }",
		"empty.lua":    "",
		"huge.lua":     "return { name = 'Huge', run = function() end }\n--" + strings.Repeat("x", 10<<20),
	}, DefaultLimits())
	want := map[string]string{
		"syntax":   "t/syntax.lua:1:",
		"norun":    "no run function",
		"notable":  "must return a table",
		"toplevel": "t/toplevel.lua:2:",
		"spinload": "t/spinload.lua:1: instruction budget exceeded: its top level ran more than 10000 instructions (limits.instructions)",
		"badname":  "name must be a string",
		"reserved": "reserved",
		"bytecode": "bytecode",
		"toodeep":  "nesting deeper",
		"empty":    "must return a table",
		"huge":     "limits.script_bytes",
	}
	for _, cls := range cat.All {
		w, broken := want[cls.ID]
		switch {
		case broken && (cls.Err == nil || !strings.Contains(cls.Err.Error(), w)):
			t.Errorf("%s: error %v, want one containing %q", cls.ID, cls.Err, w)
		case !broken && cls.Err != nil:
			t.Errorf("%s: unexpected error %v", cls.ID, cls.Err)
		}
	}
	if got := cat.Classes(); !reflect.DeepEqual(got, []string{"concatok", "fragment", "good"}) {
		t.Errorf("usable classes = %v", got)
	}
	if p, err := cat.Find("a1b"); err != nil || p.ID != "concatok" {
		t.Errorf("Find by display name: %v, %v", p, err)
	}
	if _, err := cat.Find("fragment"); err == nil {
		t.Errorf("a class without a name was accepted as a starting player")
	}
}

// hostileSuite lists a folder of hostile scripts (at least 30) and gives the
// limits they play under: 16 MiB per team. Nothing watches the process
// heap: each team's own census must stop it.
func hostileSuite(t *testing.T, dir string) ([]string, Limits) {
	paths, _ := filepath.Glob(dir + "/*.lua")
	if len(paths) < 30 {
		t.Fatalf("found %d scripts in %s", len(paths), dir)
	}
	lim := DefaultLimits()
	lim.MemoryBytes = 4 << 20
	return paths, lim
}
