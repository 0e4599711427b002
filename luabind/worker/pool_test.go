package worker

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestReserve: a pool keeps Size idle workers after a battle, or as many as
// Reserve asked, and reuses them for the next battle.
func TestReserve(t *testing.T) {
	cat := catalogOf(t, map[string]string{"idle.lua": idle})
	o := engine.Options{Size: 8, Wrap: true, Rounds: 3, Seed: 1, Workers: 1}
	for _, c := range []struct{ reserve, want int }{{0, 1}, {3, 3}, {2, 2}} {
		p := testPool(t, Options{Size: 1})
		if c.reserve > 0 {
			p.Reserve(c.reserve)
		}
		b := battle(t, cat, []string{"idle", "idle", "idle"}, o, p.Seat)
		b.Run()
		b.Close()
		kept := p.Pids()
		if len(kept) != c.want {
			t.Errorf("Reserve(%d): %d idle workers kept, want %d", c.reserve, len(kept), c.want)
		}
		b = battle(t, cat, []string{"idle", "idle", "idle"}, o, p.Seat)
		b.Run()
		b.Close()
		again := p.Pids()
		for _, pid := range kept {
			if !slices.Contains(again, pid) {
				t.Errorf("Reserve(%d): worker %d was not reused", c.reserve, pid)
			}
		}
	}
}

// TestNice: a pool with Nice starts its workers at that nice value (capped
// at 19), and they play the same battle as a pool without it.
func TestNice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("nice values are read from /proc")
	}
	cat := catalogOf(t, map[string]string{"idle.lua": idle})
	o := engine.Options{Size: 8, Wrap: true, Rounds: 3, Seed: 1, Workers: 1}
	base := niceOf(t, os.Getpid())
	for _, c := range []struct{ nice, want int }{{0, base}, {10, max(base, 10)}, {40, 19}} {
		p := testPool(t, Options{Size: 1, Nice: c.nice})
		b := battle(t, cat, []string{"idle", "idle"}, o, p.Seat)
		b.Run()
		b.Close()
		pids := p.Pids()
		if len(pids) == 0 {
			t.Fatal("no worker kept")
		}
		for _, pid := range pids {
			if got := niceOf(t, pid); got != c.want {
				t.Errorf("Nice %d: worker %d runs at nice %d, want %d", c.nice, pid, got, c.want)
			}
		}
	}
}

// niceOf reads a process's nice value: field 19 of /proc/PID/stat.
func niceOf(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, err := strconv.Atoi(fields[16])
	if err != nil {
		t.Fatal(err)
	}
	return n
}
