package luabind

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/scripts"
)

// The differential tests of the VM cores (issue 29). The previous core
// (countedLoop, vmloop.go) stays in the test binary behind oldCore; each
// test here runs the same work on both and requires the same outcome to
// the byte: every call's result, instructions used, memory charged, fault,
// message and traceback, every round of every battle as its replay
// records it, and each team's total charge. Together they run every
// shipped player and rule mod, every hostile fixture, the Lua 5.1 suite
// and the Lua 5.1 differential corpus, and thousands of generated programs
// (progen_test.go) with budgets that run out at random points:
//
//	go test ./luabind -run TestCores -v
//	LONG_TESTS=1 go test ./luabind -run TestCores -v   (ten times the programs)

// onCore runs f with the old core (old) or the new one: teams built
// inside f get that core. The caller holds coreMu.
func onCore(old bool, f func()) {
	oldCore.Store(old)
	defer oldCore.Store(false)
	f()
}

// coreMu keeps the differential tests, some of them parallel, from
// switching the core under each other.
var coreMu sync.Mutex

// bothCores runs f on the old core and then on the new and fails t where
// the two texts differ, showing the first line that differs.
func bothCores(t *testing.T, what string, f func() string) {
	t.Helper()
	coreMu.Lock()
	defer coreMu.Unlock()
	var want, got string
	onCore(true, func() { want = f() })
	onCore(false, func() { got = f() })
	if want == got {
		return
	}
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			t.Errorf("%s: the cores differ at line %d of %d:\n old: %.400s\n new: %.400s", what, i+1, len(w), wl, gl)
			return
		}
	}
}

// callRecord is what one call of a team's function must agree on.
func callRecord(tm *Team, fn lua.LValue, limit int, args ...lua.LValue) string {
	before := tm.charged
	tm.L.Push(fn)
	for _, a := range args {
		tm.L.Push(a)
	}
	fault, msg, used := tm.callWithin(len(args), 1, limit)
	result := ""
	if fault == engine.NoFault {
		result = lua.LVAsString(tm.L.Get(-1))
	}
	tm.L.SetTop(0)
	return fmt.Sprintf("limit %d used %d charged %d fault %s msg %q trace %q memTripped %v result %q",
		limit, used, tm.charged-before, fault, msg, tm.trace, tm.memTripped, result)
}

// cutAt is a budget below used, picked from seed: where a call that used
// that many instructions is stopped again.
func cutAt(seed uint64, used int) int {
	seed ^= seed >> 31
	seed *= 0x9e3779b97f4a7c15
	seed ^= seed >> 29
	return 1 + int(seed%uint64(max(used, 1)))
}

// TestCoresAgreeOnGeneratedPrograms runs generated programs (3,000; ten
// times as many under LONG_TESTS) on both cores, each once with a large
// budget and twice more with a budget that runs out somewhere inside what
// the first call used.
func TestCoresAgreeOnGeneratedPrograms(t *testing.T) {
	agreeOnGenerated(t, generatedChunks{seed: 20261129, perChunk: 50, cuts: 2, cutStep: 3, raceDiv: 6, generate: generatePrograms,
		args: func(i int) []lua.LValue { return []lua.LValue{lua.LNumber(i), lua.LNumber(2.5), lua.LNumber(-0.5)} }})
}

// generatedChunks is a differential test over generated chunks: 60 of
// them (ten times as many under LONG_TESTS, fewer under the race
// detector), chunk c made by generate from seed+c, each checked by
// agreeOnChunk with cuts budgets picked from c*perChunk*cutStep.
type generatedChunks struct {
	seed             uint64
	perChunk, cuts   int
	cutStep, raceDiv int
	generate         func(seed uint64, n int) string
	args             func(i int) []lua.LValue
}

func agreeOnGenerated(t *testing.T, g generatedChunks) {
	t.Helper()
	chunks := 60
	if os.Getenv("LONG_TESTS") != "" {
		chunks *= 10
	}
	if raceEnabled {
		chunks /= g.raceDiv
	}
	for c := range chunks {
		seed := g.seed + uint64(c)
		agreeOnChunk(t, fmt.Sprintf("chunk %d (seed %d)", c, seed), g.generate(seed, g.perChunk), g.perChunk, g.cuts, uint64(c*g.perChunk*g.cutStep), g.args)
	}
}

// agreeOnChunk loads src (a generated chunk whose table P holds perChunk
// programs) on both cores and calls each program with args(i): once with
// a large budget, then cuts times more with a budget that runs out
// somewhere inside what the first call used (picked from cutSeed). The
// records of every call and the team's log must agree.
func agreeOnChunk(t *testing.T, what, src string, perChunk, cuts int, cutSeed uint64, args func(i int) []lua.LValue) {
	t.Helper()
	lim := DefaultLimits()
	lim.Instructions = 1 << 20 / loadBudgetFactor
	bothCores(t, what, func() string {
		var sb strings.Builder
		cat := catalogOf(t, map[string]string{"gen.lua": src}, lim)
		if cat.All[0].Err != nil {
			t.Fatalf("%s does not load: %v", what, cat.All[0].Err)
		}
		tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
		defer tm.Close()
		cs := tm.class(0)
		if cs.err != "" {
			t.Fatalf("%s: %s", what, cs.err)
		}
		P := cs.table.RawGetString("P").(*lua.LTable)
		for i := 1; i <= perChunk; i++ {
			fn := P.RawGetInt(i)
			first := callRecord(tm, fn, 200_000, args(i)...)
			var used int
			fmt.Sscanf(first[strings.Index(first, "used "):], "used %d", &used)
			fmt.Fprintf(&sb, "P[%d] %s\n", i, first)
			for k := range uint64(cuts) {
				fmt.Fprintf(&sb, "P[%d] cut %s\n", i, callRecord(tm, fn, cutAt(cutSeed+uint64(i*(cuts+1))+k, used), args(i)...))
			}
		}
		fmt.Fprintf(&sb, "log %q\n", tm.Log())
		return sb.String()
	})
}

// TestCoresAgreeOnLua51Suite runs the files of TestLua51Suite on both
// cores, whole and stopped by the budget at random points; the log, the
// class's error and the team's charge must agree.
func TestCoresAgreeOnLua51Suite(t *testing.T) {
	files := []string{"strings", "pm", "sort", "math", "nextvar", "constructs", "events", "vararg", "calls", "closure"}
	for fi, name := range files {
		src, err := os.ReadFile(filepath.Join("testdata", "lua51-tests", name+".lua"))
		if err != nil {
			t.Fatal(err)
		}
		var sb bytes.Buffer
		sb.WriteString("(function(...) ")
		sb.Write(src)
		sb.WriteString("\nend)()\nreturn { name = \"Suite\", run = function() end }\n")
		run := func(instructions int) (string, int) {
			lim := DefaultLimits()
			lim.Instructions = instructions
			lim.MemoryBytes = 256 << 20
			lim.StringBytes = 4 << 20
			cat := catalogOf(t, map[string]string{name + ".lua": sb.String()}, lim)
			if err := cat.All[0].Err; err != nil {
				return fmt.Sprintf("limit %d load %q", instructions, err), 0
			}
			tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
			defer tm.Close()
			cs := tm.class(0)
			used := instructions*loadBudgetFactor - int(tm.budget.remaining())
			return fmt.Sprintf("limit %d used %d charged %d err %q log %q", instructions, used, tm.charged, cs.err, tm.Log()), used
		}
		bothCores(t, name+".lua", func() string {
			out, used := run(500_000_000 / loadBudgetFactor)
			for k := range uint64(3) {
				cut, _ := run(cutAt(uint64(fi*3)+k, used/loadBudgetFactor))
				out += "\n" + cut
			}
			return out
		})
	}
}

// TestCoresAgreeOnLua51Corpus runs the cases of TestDifferentialLua51
// (a fifth of them; all under LONG_TESTS) in the sandbox on both cores:
// every line of output and the whole run's charge must agree.
func TestCoresAgreeOnLua51Corpus(t *testing.T) {
	harness, err := os.ReadFile(filepath.Join("testdata", "lua51diff", "harness.lua"))
	if err != nil {
		t.Fatal(err)
	}
	n := 4000
	if os.Getenv("LONG_TESTS") != "" {
		n = 20000
	}
	cases := generateLua51Cases(20260515, n)
	cases = append(cases, generateIssue24Cases(20261124, n/2)...)
	const batch = 2500
	for start := 0; start < len(cases); start += batch {
		part := cases[start:min(start+batch, len(cases))]
		bothCores(t, fmt.Sprintf("cases %d-%d", start, start+len(part)), func() string {
			return strings.Join(runSandbox(t, harness, part), "\n")
		})
	}
}

// battleRecord plays b to its end and returns a hash of every round as
// the replay records it, the final snapshot and each team's charge.
func battleRecord(b *Battle) string {
	h := sha256.New()
	rec := engine.NewRecorder(b.Battle)
	for b.Step() {
		fmt.Fprintf(h, "%+v\n", rec.Next())
	}
	fmt.Fprintf(h, "%+v\n", b.Snapshot())
	return teamsRecord(h, b.Teams)
}

func teamsRecord(h hash.Hash, teams []*Team) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "rounds %x\n", h.Sum(nil))
	for i, tm := range teams {
		fmt.Fprintf(&sb, "team %d charged %d resets %d log %q\n", i, tm.charged, tm.resets, tm.Log())
	}
	return sb.String()
}

// TestCoresAgreeOnShippedPlayers plays the shipped players against each
// other, and every rule mod with its players, on both cores.
func TestCoresAgreeOnShippedPlayers(t *testing.T) {
	t.Parallel()
	cat, err := LoadCatalog(CatalogOptions{FS: scripts.FS, Dir: "scripts"})
	if err != nil {
		t.Fatal(err)
	}
	players := cat.Players()
	for i := 0; i < len(players); i += 3 {
		group := []*Class{players[i], players[(i+1)%len(players)], players[(i+2)%len(players)], players[(i+5)%len(players)]}
		bothCores(t, fmt.Sprintf("battle of players %d..", i), func() string {
			b, err := NewBattle(cat, group, engine.Options{Size: 24, Wrap: true, Rounds: 120, ReplicateRounds: 3, Seed: uint64(7 + i), Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			return battleRecord(b)
		})
	}
	for _, game := range []struct {
		name                 string
		size, rounds, budget int
	}{{"paint", 40, 150, 1_000_000}, {"orbs", 30, 100, 2_000_000}, {"snake", 30, 300, 1_000_000}} {
		folder, err := fs.Sub(scripts.FS, game.name)
		if err != nil {
			t.Fatal(err)
		}
		lim := DefaultLimits()
		lim.Instructions = game.budget
		g, err := LoadGame(folder, game.name, lim)
		if err != nil {
			t.Fatal(err)
		}
		ps := g.Players()
		bothCores(t, game.name, func() string {
			m, err := NewModBattle(g, []*Class{ps[0], ps[len(ps)-1]}, engine.ModOptions{Size: game.size, Rounds: game.rounds, Seed: 5, Workers: 1}, 50_000_000)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			h := sha256.New()
			rec := engine.NewModRecorder(m.ModBattle)
			for m.Step() {
				fmt.Fprintf(h, "%+v\n", rec.Next())
			}
			fmt.Fprintf(h, "%v %d\n", m.Err(), m.Winner())
			return teamsRecord(h, m.Teams)
		})
	}
	folder, err := fs.Sub(scripts.FS, "squarebattle-lua")
	if err != nil {
		t.Fatal(err)
	}
	g, err := LoadGame(folder, "squarebattle-lua", DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	bothCores(t, "squarebattle-lua", func() string {
		b, err := NewResolvedBattle(cat, players[:4], engine.Options{Size: 24, Wrap: true, Rounds: 80, ReplicateRounds: 3, Seed: 9, Workers: 1}, g, 50_000_000)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		return battleRecord(b)
	})
}

// TestCoresAgreeOnHostileScripts fields every hostile fixture (players
// and rules) as TestHostileScripts and TestHostileRules do, and the
// players of cmd/squarebattle's check and cross-architecture tests, on
// both cores.
func TestCoresAgreeOnHostileScripts(t *testing.T) {
	t.Parallel()
	paths, lim := hostileSuite(t, "testdata/hostile")
	// The players other packages' tests field for their faults or their
	// arithmetic (check, the cross-architecture battles) too.
	for _, pattern := range []string{"../cmd/squarebattle/testdata/check/*.lua", "../cmd/squarebattle/testdata/check/hostile/*.lua", "../cmd/squarebattle/e2e/crossarch/testdata/crossarch/*.lua"} {
		more, _ := filepath.Glob(pattern)
		if len(more) == 0 {
			t.Fatalf("no fixtures at %s", pattern)
		}
		paths = append(paths, more...)
	}
	explorer, err := fs.ReadFile(scripts.FS, "explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	opts := engine.Options{Size: 8, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: 3, Workers: 1}
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bothCores(t, path, func() string {
			cat := catalogOf(t, map[string]string{"hostile.lua": string(src), "explorer.lua": string(explorer), "victim.lua": victim}, lim)
			var players []*Class
			for _, n := range []string{"hostile", "explorer", "victim"} {
				p, err := cat.Find(n)
				if err != nil {
					return "load: " + err.Error() // some are meant not to load: that too must agree
				}
				players = append(players, p)
			}
			b, err := NewBattle(cat, players, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			return battleRecord(b)
		})
	}
	rules, _ := filepath.Glob("testdata/hostile-rules/*.lua")
	for _, path := range rules {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bothCores(t, path, func() string {
			return hostileRulesRecord(t, string(src))
		})
	}
}

// hostileRulesRecord plays a hostile rules.lua as TestHostileRules does
// and returns every round as recorded, what stopped the battle and the
// teams' charges.
func hostileRulesRecord(t *testing.T, src string) string {
	_, lim := hostileSuite(t, "testdata/hostile-rules")
	player := `return { name = "P", run = function(view, memory) memory.n = (memory.n or 0) + 1; return memory.n end }`
	size := 8
	if strings.Contains(src, "size = function") {
		size = 0
	}
	folder := fstest.MapFS{"rules.lua": {Data: []byte(src)}, "p.lua": {Data: []byte(player)}}
	g, err := LoadGame(folder, "hostile", lim)
	if err != nil {
		return "load: " + err.Error()
	}
	if g.Info.Protocol == SquareBattleProtocol {
		cat := catalogOf(t, map[string]string{"idle.lua": idle}, lim)
		p, err := cat.Find("idle")
		if err != nil {
			t.Fatal(err)
		}
		b, err := NewResolvedBattle(cat, []*Class{p, p}, engine.Options{Size: 8, Rounds: 20, Seed: 3, Workers: 1}, g, 1_000_000)
		if err != nil {
			return "start: " + err.Error()
		}
		defer b.Close()
		return battleRecord(b) + fmt.Sprintf("stopped %v", b.Err())
	}
	p, err := g.Find("p")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewModBattle(g, []*Class{p, p}, engine.ModOptions{Size: size, Rounds: 20, Seed: 3, Workers: 1}, 1_000_000)
	if err != nil {
		return "start: " + err.Error()
	}
	defer m.Close()
	h := sha256.New()
	rec := engine.NewModRecorder(m.ModBattle)
	for m.Step() {
		fmt.Fprintf(h, "%+v\n", rec.Next())
	}
	return teamsRecord(h, m.Teams) + fmt.Sprintf("stopped %v", m.Err())
}
