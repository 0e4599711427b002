package luabind

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLua51Suite runs files of the official Lua 5.1 test suite
// (testdata/lua51-tests; see README.md there for their origin, licence and
// the edits) inside the sandbox, each as the top level of a player script
// with a large budget. Every assertion left in them must pass. Lines the
// sandbox cannot run (io, os, debug, setfenv, collectgarbage, loadstring,
// coroutines) were replaced by a comment "-- sandbox: ..." saying why, and
// the deliberate deviations by "-- deviation: ..."; the test checks that
// each such comment gives a reason and that every file still ends by
// printing OK. testdata/lua51-tests/README.md lists the deviations.
func TestLua51Suite(t *testing.T) {
	files := []string{"strings", "pm", "sort", "math", "nextvar", "constructs", "events", "vararg", "calls", "closure"}
	removed := regexp.MustCompile(`^\s*-- (sandbox|deviation): (.*)$`)
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "lua51-tests", name+".lua"))
			if err != nil {
				t.Fatal(err)
			}
			edits := map[string]int{}
			for i, line := range strings.Split(string(src), "\n") {
				m := removed.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				edits[m[1]]++
				if len(strings.TrimSpace(m[2])) < 8 {
					t.Errorf("%s.lua:%d: a %s edit without a reason", name, i+1, m[1])
				}
			}
			t.Logf("%d lines removed for the sandbox, %d for deviations", edits["sandbox"], edits["deviation"])
			var sb bytes.Buffer
			sb.WriteString("(function(...) ") // the same line numbers; a file may end with a return
			sb.Write(src)
			sb.WriteString("\nend)()\nreturn { name = \"Suite\", run = function() end }\n")
			lim := DefaultLimits()
			lim.Instructions = 500_000_000 / loadBudgetFactor
			lim.MemoryBytes = 256 << 20
			lim.StringBytes = 4 << 20
			cat := catalogOf(t, map[string]string{name + ".lua": sb.String()}, lim)
			if len(cat.All) != 1 || cat.All[0].Err != nil {
				t.Fatalf("does not compile: %v", cat.All[0].Err)
			}
			tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
			defer tm.Close()
			if cs := tm.class(0); cs.err != "" {
				t.Fatalf("failed: %s", cs.err)
			}
			log := tm.Log()
			if len(log) == 0 || log[len(log)-1] != "OK" {
				t.Errorf("did not print OK at the end; the log ends %q", log)
			}
		})
	}
}
