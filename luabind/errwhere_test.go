package luabind

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestWhereErrorsHappen: a timeout, a runtime error and an error() in a
// helper are reported at the line of the helper that was running (not
// the line of `run = function`), with a traceback of the frames that led
// there, innermost first; a bad return at the line of its return; the
// text is the same in a second battle.
func TestWhereErrorsHappen(t *testing.T) {
	cases := []struct {
		name, src, msg, trace string
	}{
		{"timeout in a helper's loop",
			`local function spin(n)
  local x = 0
  while true do x = x + n end
end
local function walk() return spin(1) + 1 end
return { name = "P", run = function()
  walk()
end }`,
			"t/p.lua:3: instruction budget exceeded",
			"t/p.lua:3: in function 'spin'\nt/p.lua:5: in function 'walk'\nt/p.lua:7: in function <t/p.lua:6>"},
		{"runtime error in a method",
			`local Bot = {}
function Bot:aim(view)
  return self.target.row
end
return { name = "P", run = function(self, team, view)
  local b = setmetatable({}, {__index = Bot})
  return "MOVE", b:aim(view)
end }`,
			"t/p.lua:3: attempt to index field 'target' (a nil value)",
			"t/p.lua:3: in function 'aim'\nt/p.lua:7: in function <t/p.lua:5>"},
		{"error() in a field function",
			`local M = {}
M.check = function(v)
  if not v then error("no view") end
end
return { name = "P", run = function(self, team, view)
  M.check(nil)
end }`,
			"t/p.lua:3: no view",
			"t/p.lua:3: in function 'check'\nt/p.lua:6: in function <t/p.lua:5>"},
		{"bad return at its return",
			`return { name = "P", run = function()
  local d = 9
  if d > 8 then
    return "MOVE", d
  end
  return "WAIT"
end }`,
			"t/p.lua:4: run returned direction 9",
			""},
		{"bad return after calls into Lua from Go",
			`return { name = "P", run = function()
  local t = {3, 1, 2}
  table.sort(t, function(a, b)
    return a < b
  end)
  return "DANCE"
end }`,
			"t/p.lua:6: run returned unknown action",
			""},
		{"deep recursion keeps five frames",
			`local function down(n)
  if n == 0 then return nil + 1 end
  return 1 + down(n - 1)
end
return { name = "P", run = function()
  return down(10)
end }`,
			"t/p.lua:2: attempt to perform arithmetic on a nil value",
			"t/p.lua:2: in function 'down'\nt/p.lua:3: in function 'down'\nt/p.lua:3: in function 'down'\nt/p.lua:3: in function 'down'\nt/p.lua:3: in function 'down'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var first engine.Problem
			for i := range 2 {
				lim := DefaultLimits()
				lim.Instructions = 5000
				cat := catalogOf(t, map[string]string{"p.lua": c.src, "q.lua": `return { name = "Q", run = function() end }`}, lim)
				b, _ := battle(t, cat, []string{"p", "q"}, engine.Options{Size: 6, Rounds: 1, Seed: 1})
				s := b.Run()
				if len(s.FirstProblems) == 0 {
					t.Fatal("no problem reported")
				}
				p := s.FirstProblems[0]
				if !strings.HasPrefix(p.Message, c.msg) || p.Trace != c.trace {
					t.Errorf("problem:\n%s\n%s\nwant a message starting %q and the traceback\n%s", p.Message, p.Trace, c.msg, c.trace)
				}
				if i == 0 {
					first = p
				} else if p != first {
					t.Errorf("second battle: %+v, first: %+v", p, first)
				}
			}
		})
	}
}

// TestNamingCharged: naming the value of an error reads the failing
// function's code from its start, so it is charged by what it reads: a
// caught error at the end of a long function whose body is skipped costs
// more than the same error in a short one.
func TestNamingCharged(t *testing.T) {
	used := func(skipped int) int {
		body := "local f = function()\nif false then\n" + strings.Repeat("local a = 1\n", skipped) +
			"end\nlocal x\nx()\nend\nfor i = 1, 10 do pcall(f) end"
		_, fault, msg, n := runLua(t, body, 1_000_000)
		if fault != engine.NoFault {
			t.Fatalf("%v %s", fault, msg)
		}
		return n
	}
	short, long := used(1), used(150)
	if long < short+10*150/probesPerInstruction {
		t.Errorf("10 caught errors after 150 skipped instructions used %d instructions, after 1 %d: naming not charged", long, short)
	}
}
