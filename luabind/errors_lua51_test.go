package luabind

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// noviceMistakes are small player bodies with the mistakes people make
// first, each failing with one runtime error. The body runs as the
// second line onwards of a function, in the sandbox as the player's run
// function and in lua5.1 as a local function called at the end, so the
// line numbers agree.
var noviceMistakes = []struct{ name, body string }{
	{"call nil global", "if false then roundz = 0 end\nroundz(1.5)"},
	{"index nil local", "local p\nreturn p.x"},
	{"index nil field", "local grid = {}\nreturn grid.row.col"},
	{"set field of nil local", "local p\np.x = 1"},
	{"call nil method", "local s = {}\ns:foo()"},
	{"call number field", "local t = {n = 1}\nt.n()"},
	{"call nil result", "local function f() end\nf()()"},
	{"index nil upvalue", "local cfg\nlocal function get() return cfg.speed end\nreturn get()"},
	{"call nil upvalue", "local helper\nlocal function go() helper() end\ngo()"},
	{"arithmetic on nil local", "local x\nreturn x + 1"},
	{"arithmetic on nil field", "local t = {}\nreturn 2 * t.n"},
	{"arithmetic on nil global", "if false then hp = 0 end\nreturn hp - 1"},
	{"arithmetic on string", "local s = \"abc\"\nreturn s + 1"},
	{"unary minus on table", "local t = {}\nreturn -t"},
	{"concatenate nil global", "if false then name = 0 end\nreturn \"hi \" .. name"},
	{"concatenate nil local in a chain", "local x\nreturn \"a\" .. x .. \"b\""},
	{"concatenate table", "local t = {}\nreturn \"t=\" .. t"},
	{"length of nil local", "local t\nreturn #t"},
	{"length of nil field", "local t = {}\nreturn #t.items"},
	{"length of number upvalue", "local n = 5\nlocal function f() return #n end\nreturn f()"},
	{"length of nil global in a sum", "if false then q = 0 end\nlocal t = {1}\nreturn #t + #q"},
	{"length of a call's result", "local function f() end\nreturn #f()"},
	{"compare number with nil", "local a\nreturn 1 < a"},
	{"compare two tables", "return {} < {}"},
	{"compare string with number", "return \"a\" <= 1"},
	{"bad argument", "local s\nreturn string.sub(s, 1)"},
	{"bad argument of a method", "local s = \"abc\"\nreturn s:rep()"},
	{"bad argument missing", "return math.floor()"},
	{"index after a branch", "local a = {}\nif a.x then\n  local y = 1\nend\nreturn a.y.z"},
	{"index in a loop", "for i = 1, 3 do\n  local v = nil\n  v.x = i\nend"},
	{"index after a call", "local t = {}\nlocal n = tostring(1)\nreturn t.a.b"},
	{"call field after calls", "local m = {}\nlocal a = math.floor(1.5)\nm.go(a, tostring(a))"},
}

// TestErrorsLikeLua51: each novice mistake fails with the message Debian's
// lua5.1 prints for it, file and line included, variable named. The global
// cases assign their global on a path never taken: reading a global no file
// defines at all is the sandbox's own error ("hp is not defined", see
// TestUndefinedGlobals), a deliberate difference from Lua 5.1.
func TestErrorsLikeLua51(t *testing.T) {
	lua51, err := exec.LookPath("lua5.1")
	if err != nil {
		t.Skip("lua5.1 is not installed (apt-get install lua5.1)")
	}
	dir := t.TempDir()
	for _, c := range noviceMistakes {
		t.Run(c.name, func(t *testing.T) {
			src := "local function run()\n" + c.body + "\nend\nrun()\n"
			if err := os.WriteFile(filepath.Join(dir, "s.lua"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(lua51, "s.lua")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("lua5.1 ran %q without an error", c.body)
			}
			first, _, _ := strings.Cut(string(out), "\n")
			_, want, _ := strings.Cut(first, ": ") // "lua5.1: " or "/usr/bin/lua5.1: "
			_, fault, msg, _ := runLua(t, c.body, 10000)
			if fault != engine.FaultError {
				t.Fatalf("fault %v, want an error", fault)
			}
			if got := strings.TrimPrefix(msg, "t/"); got != want {
				t.Errorf("sandbox: %s\nlua5.1:  %s", got, want)
			}
		})
	}
}
