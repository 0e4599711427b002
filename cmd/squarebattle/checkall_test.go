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
// trial never reaches it.
func TestCheckAll(t *testing.T) {
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
	code := Main([]string{"check", "--isolation", "none", "--all", "--seed", "5", file}, &out, &errs)
	if code != exitFailure || !strings.Contains(errs.String(), "lurker.lua: 2 undefined globals\n") {
		t.Errorf("status %d, stderr %q; want 1 and the undefined globals counted", code, errs.String())
	}
	text := out.String()
	for _, want := range []string{"lurker.lua:5: ATACK is not defined (did you mean ATTACK?)", "lurker.lua:5: NORTH is not defined (did you mean N?)", "Against every player (4 battles each"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	row := regexp.MustCompile(`(?m)^  (\S.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)%$`)
	rows := row.FindAllStringSubmatch(text, -1)
	names := map[string]bool{}
	for _, r := range rows {
		names[r[1]] = true
		if n := atoi(r[2]) + atoi(r[3]) + atoi(r[4]); n != 4 {
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
