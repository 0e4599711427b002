package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCheckAll: check --all plays the script against every other shipped
// player, allBattles battles each, and prints one row per opponent whose
// counts add up; a misspelt global is named with its line even though the
// trial never reaches it. The battles last 200 rounds (--rounds): what is
// tested is the table and the report, not the trial's length (the
// trial's own tests, TestCheckHostile, play it as configured); at the
// configured 1,500 rounds the opponents fill the arena and the 37 battles
// cost 15 s.
func TestCheckAll(t *testing.T) {
	if raceOn {
		t.Skip("check --all: plays full battles through the command line; the race detector's pass has the battles' concurrency covered by the tournament, isolation and serve tests, and the plain pass runs this")
	}

	dir := t.TempDir()
	file := filepath.Join(dir, "lurker.lua")
	writeLua(t, file, `return { name = "Lurker", run = function(self, team, view)
  for d = 1, 8 do
    if view[d] >= 0 and view[d] ~= team then return ATTACK, d end
  end
  if round() < 0 then return ATACK, NORTH end
  return WAIT
end }`)
	var out, errs strings.Builder
	code := Main([]string{"check", "--isolation", "none", "--all", "--seed", "5", "--rounds", "200", file}, &out, &errs)
	if code != exitFailure || !strings.Contains(errs.String(), "lurker.lua: 2 undefined globals\n") {
		t.Errorf("status %d, stderr %q; want 1 and the undefined globals counted", code, errs.String())
	}
	text := out.String()
	for _, want := range []string{"lurker.lua:5: ATACK is not defined (did you mean ATTACK?)", "lurker.lua:5: NORTH is not defined (did you mean N?)", "Against every player (4 battles each"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	row := regexp.MustCompile(`(?m)^  (\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%\s+\d+\s+\d+$`)
	rows := row.FindAllStringSubmatch(text, -1)
	names := map[string]bool{}
	for _, r := range rows {
		names[r[1]] = true
		if n := atoi(r[2]) + atoi(r[3]) + atoi(r[4]) + atoi(r[5]); n != 4 {
			t.Errorf("%s: %d battles, want 4", r[1], n)
		}
	}
	for _, p := range []string{"Explorer", "Wanderer", "Borg", "Pinwheel"} {
		if !names[p] {
			t.Errorf("no row for %s:\n%s", p, text)
		}
	}
	if names["Lurker"] {
		t.Errorf("the script played itself:\n%s", text)
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func writeLua(t *testing.T, name, src string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadmeHunter: the README's first player, taken from the README itself,
// loads without problems, kills none of its own team in the trial and wins
// more than half its battles against the Explorer and the Pinwheel in
// check --all (the newcomer's first yardstick), over fixed seeds.
func TestReadmeHunter(t *testing.T) {
	if raceOn {
		t.Skip("the README Hunter against every player: plays full battles through the command line; the race detector's pass has the battles' concurrency covered by the tournament, isolation and serve tests, and the plain pass runs this")
	}

	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)Save this as `scripts/hunter.lua`:\\s*```lua\n(.*?)```").FindSubmatch(readme)
	if block == nil {
		t.Fatal("README.md has no Hunter code block after \"Save this as `scripts/hunter.lua`:\"")
	}
	file := filepath.Join(t.TempDir(), "hunter.lua")
	writeLua(t, file, string(block[1]))
	row := regexp.MustCompile(`(?m)^  (Explorer|Pinwheel)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+%\s+0\s+0$`)
	ownKills := regexp.MustCompile(`(?m)^\s+0\s+Hunter(?:\s+\d+){4}\s+(\d+)`)
	won, played := map[string]int{}, map[string]int{}
	for _, seed := range []string{"1", "9", "17"} {
		var out, errs strings.Builder
		if code := Main([]string{"check", "--isolation", "none", "--all", "--seed", seed, file}, &out, &errs); code != exitOK {
			t.Fatalf("seed %s: check exit %d, stderr %q\n%s", seed, code, errs.String(), out.String())
		}
		if m := ownKills.FindStringSubmatch(out.String()); m == nil || m[1] != "0" {
			t.Errorf("seed %s: the Hunter's own-team kills are not 0 in the trial:\n%s", seed, out.String())
		}
		for _, r := range row.FindAllStringSubmatch(out.String(), -1) {
			won[r[1]] += atoi(r[2])
			played[r[1]] += atoi(r[2]) + atoi(r[3]) + atoi(r[4]) + atoi(r[5])
		}
	}
	for _, p := range []string{"Explorer", "Pinwheel"} {
		if played[p] == 0 || 2*won[p] <= played[p] {
			t.Errorf("the README's Hunter won %d of %d battles against %s; want more than half", won[p], played[p], p)
		}
	}
}
