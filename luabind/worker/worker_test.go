package worker

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
	"github.com/squarebattle/squarebattle/scripts"
)

// TestMain turns this test binary into a worker when a pool re-executes it
// with the hidden subcommand, or into a parent that starts workers and
// waits to be killed (TestNoOrphans), so the tests need no prior build.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "__worker" {
		os.Exit(Main(os.Args[2:], os.Stderr, ServeOptions{Extra: testHooks}))
	}
	if len(os.Args) > 1 && os.Args[1] == plainWorker {
		os.Exit(Main(os.Args[2:], os.Stderr, ServeOptions{}))
	}
	if len(os.Args) > 2 && os.Args[1] == "__liar" {
		liar(os.Args[2])
	}
	if os.Getenv("WORKER_TEST_PARENT") == "1" {
		orphanParent()
	}
	os.Exit(m.Run())
}

// testPool starts workers that field the test hooks (testhooks.Globals)
// besides the sandbox's globals.
func testPool(t testing.TB, o Options) *Pool {
	t.Helper()
	o.Command = []string{os.Args[0], "__worker"}
	return startPool(t, o)
}

// plainWorker is the subcommand of a worker without the test hooks.
const plainWorker = "__worker_plain"

// plainPool starts workers exactly as the program's: their team VMs hold
// what an in-process team holds and nothing more. Tests that compare a
// battle behind the wall with the same battle in this process need it:
// the hooks are globals, which the memory census counts and charges, so
// a worker with them runs a few instructions more per census than a team
// here and the two part at the first call that runs out of budget.
func plainPool(t testing.TB, o Options) *Pool {
	t.Helper()
	o.Command = []string{os.Args[0], plainWorker}
	return startPool(t, o)
}

func startPool(t testing.TB, o Options) *Pool {
	t.Helper()
	p, err := NewPool(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func catalogOf(t testing.TB, files map[string]string) *luabind.Catalog {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: mapFS(files), Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, src := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	return fsys
}

func shipped(t testing.TB) *luabind.Catalog {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: scripts.FS, Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

func battle(t testing.TB, cat *luabind.Catalog, names []string, o engine.Options, seat luabind.Seater) *luabind.Battle {
	t.Helper()
	var players []*luabind.Class
	for _, n := range names {
		p, err := cat.Find(n)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	b, err := luabind.NewSeatedBattle(cat, players, o, seat)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

func sameBattle(t *testing.T, got, want *engine.Snapshot) {
	t.Helper()
	if got.Round != want.Round || got.Winner != want.Winner || !reflect.DeepEqual(got.Cells, want.Cells) {
		t.Errorf("battle differs: round %d winner %d, want round %d winner %d", got.Round, got.Winner, want.Round, want.Winner)
	}
	for i := range want.Teams {
		if got.Teams[i].Stats != want.Teams[i].Stats {
			t.Errorf("team %d: %+v, want %+v", i, got.Teams[i].Stats, want.Teams[i].Stats)
		}
	}
	if !reflect.DeepEqual(got.FirstProblems, want.FirstProblems) || !reflect.DeepEqual(got.Problems, want.Problems) {
		t.Errorf("problems differ:\n got %+v\nwant %+v", got.FirstProblems, want.FirstProblems)
	}
}

// TestSameBattle: the shipped players give the same battle, problems
// included, in this process and behind the wall, for any number of engine
// workers and any pool size.
func TestSameBattle(t *testing.T) {
	cat := shipped(t)
	var players []string
	for _, p := range cat.Players()[:4] {
		players = append(players, p.ID)
	}
	o := engine.Options{Size: 24, Wrap: true, Rounds: 150, ReplicateRounds: 5, Seed: 7, Workers: 1}
	want := battle(t, cat, players, o, nil).Run()
	for _, size := range []int{1, 4} {
		p := plainPool(t, Options{Size: size})
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("pool%d/workers%d", size, workers), func(t *testing.T) {
				o.Workers = workers
				b := battle(t, cat, players, o, p.Seat)
				sameBattle(t, b.Run(), want)
				b.Close()
			})
		}
	}
}

const (
	victim = testhooks.Victim
	idle   = `return { name = "Idle", run = function() end }`
)

// TestBackstop fields, behind the wall, players that call the test hooks:
// each costs only its own team, is counted and recorded as backstop events,
// the other teams play the battle they play against a square that only
// waits, and a re-run handed the recorded events plays the same rounds,
// in this process or behind the wall.
func TestBackstop(t *testing.T) {
	explorer, err := scripts.FS.ReadFile("explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	o := engine.Options{Size: 8, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: 3, Workers: 2}
	players := []string{"hostile", "explorer", "victim"}
	files := func(hostile string) map[string]string {
		return map[string]string{"hostile.lua": hostile, "explorer.lua": string(explorer), "victim.lua": victim}
	}
	// Only the spinning hook needs the wall clock to fire soon; the others
	// die by themselves, however loaded the machine.
	spinPool := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: 700 * time.Millisecond, PerInstruction: time.Nanosecond})
	p := testPool(t, Options{Size: 3, MemoryMiB: 256, CallTimeout: time.Minute})
	want := battle(t, catalogOf(t, files(idle)), players, o, nil).Run()
	for _, c := range testhooks.Cases {
		t.Run(c.Hook, func(t *testing.T) {
			if why := c.SkipReason(AddressSpaceLimited()); why != "" {
				t.Skip(why)
			}
			cat := catalogOf(t, files(c.Player()))
			b := battle(t, cat, players, o, hostileSeat(c.Kind == engine.BackstopTimeout, spinPool, p))
			logs := recordAll(b)
			got := b.Snapshot()
			h := got.Teams[0].Stats
			if (c.Kind == engine.BackstopTimeout && h.Timeouts != 3) || (c.Kind == engine.BackstopCrash && h.Errors != 3) {
				t.Errorf("hostile stats %+v, want 3 %ss (then retired)", h, c.Kind)
			}
			if len(got.FirstProblems) == 0 || !strings.Contains(got.FirstProblems[0].Message, c.Shown) ||
				!strings.HasPrefix(got.FirstProblems[0].Message, "scripts/hostile.lua: ") {
				t.Errorf("first problems %+v, want one naming scripts/hostile.lua and %q", got.FirstProblems, c.Shown)
			} else {
				t.Logf("shown as: %s", got.FirstProblems[0].Message)
			}
			events := backstopsOf(logs)
			hostile, _ := cat.Find("hostile")
			var kinds []engine.BackstopKind
			for _, e := range events {
				kinds = append(kinds, e.Kind)
				if e.Team != 0 || e.Settle || e.Class != cat.ClassID(hostile) {
					t.Errorf("event %+v, want team 0's turns", e)
				}
			}
			if want := []engine.BackstopKind{c.Kind, c.Kind, c.Kind, engine.BackstopRetired}; !reflect.DeepEqual(kinds, want) {
				t.Errorf("recorded events %v, want %v", kinds, want)
			}
			otherTeamsSame(t, got, want)
			for _, where := range []struct {
				name string
				seat luabind.Seater
			}{{"in-process", nil}, {"worker", p.Seat}} {
				again := battle(t, cat, players, o, luabind.ReplayedSeater(where.seat, events))
				sameLogs(t, where.name, recordAll(again), logs)
			}
		})
	}
}

// hostileSeat seats team 0, the hostile one, in short when it spins (so
// the test waits out only a short wall-clock bound) and everyone else in
// long, whose bound no honest call on a loaded machine comes near.
func hostileSeat(spins bool, short, long *Pool) luabind.Seater {
	return func(o luabind.TeamOptions) (luabind.Seat, error) {
		if o.Index == 0 && spins {
			return short.Seat(o)
		}
		return long.Seat(o)
	}
}

func otherTeamsSame(t *testing.T, got, want *engine.Snapshot) {
	t.Helper()
	if got.Round != want.Round || !reflect.DeepEqual(got.Cells, want.Cells) {
		t.Errorf("the arena differs from the battle against a waiting square")
	}
	for team := 1; team < len(want.Teams); team++ {
		if got.Teams[team].Stats != want.Teams[team].Stats {
			t.Errorf("team %d changed:\n got %+v\nwant %+v", team, got.Teams[team].Stats, want.Teams[team].Stats)
		}
	}
}

// TestKilledFromOutside: kill -9 of a team's worker while the battle runs
// costs that team one error and a fresh Lua state; the battle goes on.
func TestKilledFromOutside(t *testing.T) {
	explorer, _ := scripts.FS.ReadFile("explorer.lua")
	cat := catalogOf(t, map[string]string{"idle.lua": idle, "explorer.lua": string(explorer), "victim.lua": victim})
	o := engine.Options{Size: 8, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: 3, Workers: 2}
	players := []string{"idle", "explorer", "victim"}
	want := battle(t, cat, players, o, nil).Run()
	p := testPool(t, Options{Size: 3})
	b := battle(t, cat, players, o, p.Seat)
	for range 10 {
		b.Step()
	}
	s := b.Seats[0].(*Seat)
	pid := s.w.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	got := b.Run()
	if h := got.Teams[0].Stats; h.Errors != 1 {
		t.Errorf("killed team: %+v, want one error", h)
	}
	if len(got.FirstProblems) == 0 || !strings.Contains(got.FirstProblems[0].Message, "signal: killed") {
		t.Errorf("problems %+v, want the kill named", got.FirstProblems)
	}
	otherTeamsSame(t, got, want)
	if alive(pid) {
		t.Errorf("worker %d still alive", pid)
	}
}

// orphanParent is the parent program of TestNoOrphans: it starts a pool of
// three workers, prints their pids and waits to be killed.
func orphanParent() {
	p, err := NewPool(Options{Command: []string{os.Args[0], "__worker"}, Size: 3})
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	var ws []*proc
	for range 3 {
		w, err := p.get()
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		fmt.Println(w.cmd.Process.Pid)
	}
	fmt.Println("ready")
	select {}
}

// TestNoOrphans kills a parent with SIGKILL and finds none of its workers
// alive a few seconds later.
func TestNoOrphans(t *testing.T) {
	c := exec.Command(os.Args[0], "-test.run=^$")
	c.Env = append(os.Environ(), "WORKER_TEST_PARENT=1")
	out, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var pids []int
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "ready" {
		pid, err := strconv.Atoi(sc.Text())
		if err != nil {
			c.Process.Kill()
			t.Fatalf("parent said %q", sc.Text())
		}
		pids = append(pids, pid)
	}
	if len(pids) != 3 {
		t.Fatalf("parent started %v", pids)
	}
	c.Process.Kill()
	c.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("worker %d outlived its parent", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// alive reports whether pid runs (a zombie waiting for its reaper does not).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || (s[i+2] != 'Z' && s[i+2] != 'X')
}

// liar is a broken worker: it reads requests and answers each one as
// its kind says, never as a worker should.
func liar(kind string) {
	r := bufio.NewReader(os.Stdin)
	for {
		f, err := readFrame(r, nil, maxFrameIn)
		if err != nil {
			os.Exit(0)
		}
		var e enc
		var out []byte
		switch {
		case kind == "huge":
			out = []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f} // a frame of 2^49 bytes
		case kind == "count" && f[0] == kindTurn:
			e.start(kindOK)
			e.u(1 << 40) // more intents than squares, more than the frame holds
			out = e.finish()
		case kind == "garbage" && f[0] == kindTurn:
			out = []byte{3, kindOK, 0xff, 0xff}
		default:
			e.start(kindOK)
			out = e.finish()
		}
		os.Stdout.Write(out)
	}
}

// TestBrokenWorker: a worker that answers with a frame naming a huge
// size, an absurd count or garbage costs its team a crash, and the parent
// allocates nothing by the sizes it names.
func TestBrokenWorker(t *testing.T) {
	cat := catalogOf(t, map[string]string{"idle.lua": idle, "victim.lua": victim})
	o := engine.Options{Size: 8, Wrap: true, Rounds: 10, ReplicateRounds: 3, Seed: 3, Workers: 1}
	for _, kind := range []string{"huge", "count", "garbage"} {
		t.Run(kind, func(t *testing.T) {
			p, err := NewPool(Options{Command: []string{os.Args[0], "__liar", kind}, Size: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			got := battle(t, cat, []string{"idle", "victim"}, o, p.Seat).Run()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if got.Teams[0].Stats.Errors != 3 || got.Teams[1].Stats.Errors != 3 {
				t.Errorf("stats %+v %+v, want three errors each (then retired)", got.Teams[0].Stats, got.Teams[1].Stats)
			}
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
				t.Errorf("the parent allocated %d MB", grown>>20)
			}
			if len(got.FirstProblems) > 0 {
				t.Logf("shown as: %s", got.FirstProblems[0].Message)
			}
		})
	}
}
