package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// TestReaderBoundsAreTheConfigs: the bounds the map and replay readers
// hold files to are those of the settings a live battle obeys.
func TestReaderBoundsAreTheConfigs(t *testing.T) {
	for _, c := range []struct {
		key  string
		most int
		set  func(*config.Config, int)
	}{
		{"arena.size", engine.MaxArenaSize, func(c *config.Config, n int) { c.Arena.Size = n }},
		{"arena.size", replay.MaxSize, func(c *config.Config, n int) { c.Arena.Size = n }},
		{"rules.rounds", replay.MaxRounds, func(c *config.Config, n int) { c.Rules.Rounds = n }},
	} {
		cfg := config.Default()
		c.set(&cfg, c.most)
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s %d: %v", c.key, c.most, err)
		}
		c.set(&cfg, c.most+1)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s %d: %v, want it refused", c.key, c.most+1, err)
		}
	}
}

// TestHostileFilesExit2: a replay or map file naming more than a battle
// can hold is bad input: exit 2, with one line naming the file, the line
// and what is wrong; nothing is built of the size it names.
func TestHostileFilesExit2(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(text string) []byte {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(text))
		w.Close()
		return b.Bytes()
	}
	head := func(size, rounds int, players string) string {
		return fmt.Sprintf(`{"squarebattle_replay":1,"size":%d,"rounds":%d,"classes":[{"id":"explorer"}],"players":[%s],"start":[0,1,-1,%d]}`+"\n",
			size, rounds, players, size*size-1)
	}
	var players strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&players, `{"team":%d},`, i)
	}
	many := strings.TrimSuffix(players.String(), ",")
	var wide strings.Builder
	for r := range 2100 {
		for c := range 2100 {
			if r == 0 && c == 0 {
				wide.WriteString("0 ")
			} else {
				wide.WriteString("-1 ")
			}
		}
		wide.WriteByte('\n')
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a replay of a 16384×16384 arena", []string{"replay", "--verify", write("huge.sbr", gz(head(16384, 100, `{"team":0}`)+"{\"r\":1}\n"))},
			"huge.sbr: line 1: size: 16384 is out of range"},
		{"a replay of a 2001×2001 arena, watched", []string{"replay", write("2001.sbr", gz(head(2001, 100, `{"team":0}`)))},
			"2001.sbr: line 1: size: 2001 is out of range"},
		{"a replay of 5000 players", []string{"replay", "--verify", write("players.sbr", gz(head(100, 100, many)))},
			"players.sbr: line 1: players: more than 1024 players"},
		{"a replay of 10^12 rounds", []string{"replay", "--verify", write("rounds.sbr", []byte(head(10, 1_000_000_000_000, `{"team":0}`)))},
			"rounds.sbr: line 1: rounds: 1000000000000 is out of range"},
		{"a replay whose header is 64 MiB of spaces", []string{"replay", "--verify", write("spaces.sbr", gz(`{"squarebattle_replay":1,`+strings.Repeat(" ", 64<<20)+"}\n"))},
			"spaces.sbr: line 1: a line longer than"},
		{"a 2100×2100 map", []string{"run", "--rounds", "1", "--map", write("2100.map", []byte(wide.String())), "explorer"},
			"2100.map:1: the first row has 2100 cells; an arena is at most 2000×2000 (arena.size)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runMain(t, c.args...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want 2 saying %q; output:\n%s%s", code, c.want, out, errOut)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
				t.Errorf("error is not one line: %q", errOut)
			}
		})
	}
}
