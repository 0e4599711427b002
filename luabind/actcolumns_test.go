package luabind

import (
	"strings"
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// columnsRules checks, every round, that the columns look as the engine
// makes them (the six keys in order through next, each list of the round's
// length with the right entries, no metatables), then tampers with the
// table of columns or with one list — or with one and keeps it, to write
// to it in the next round.
const columnsRules = `
local keys = { "square", "team", "cell", "action", "target", "child" }
local kept_lists, kept_outer = {}, nil
local tamper_outer = {
  function(a) a.extra = true end,
  function(a) setmetatable(a, {}) end,
  function(a) a.cell = {} end,
  function(a) a.cell = nil end,
  function(a) a[1] = true end,
  function(a) a.extra = true; kept_outer = a end,
}
local tamper_list = {
  function(l) l.extra = true end,
  function(l) setmetatable(l, {}) end,
  function(l) l[#l + 1] = 0 end,
  function(l) table.remove(l) end,
  function(l) l[1] = "x" end,
  function(l) l.extra = true; kept_lists[#kept_lists + 1] = l end,
}
return {
  protocol = "squarebattle",
  acts = "columns",
  place = function() return { 0 } end,
  over = function() return false end,
  resolve = function(game, acts, next_id)
    for _, l in ipairs(kept_lists) do l[1] = "written" end
    kept_lists = {}
    if kept_outer then kept_outer.cell, kept_outer = "written", nil end
    local r = game.round()
    local got = {}
    for k in pairs(acts) do got[#got + 1] = tostring(k) end
    if table.concat(got, " ") ~= table.concat(keys, " ") or getmetatable(acts) ~= nil then
      error("round " .. r .. ": columns " .. table.concat(got, " "))
    end
    local n = 20 - r % 5
    for _, k in ipairs(keys) do
      local l, c = acts[k], 0
      if type(l) ~= "table" or getmetatable(l) ~= nil or #l ~= n then error("round " .. r .. ": column " .. k) end
      for i in pairs(l) do
        c = c + 1
        if i ~= c then error("round " .. r .. ": column " .. k .. " has key " .. tostring(i)) end
      end
      if c ~= n then error("round " .. r .. ": column " .. k .. " has " .. c .. " entries") end
    end
    local dest = {}
    for i = 1, n do
      local odd = i % 2 == 1
      local want = { square = next_id + i, team = i % 3, cell = i - 1, action = odd and "wait" or "replicate",
        target = odd and -1 or i, child = not odd and "c" }
      for _, k in ipairs(keys) do
        if acts[k][i] ~= want[k] then
          error("round " .. r .. ": " .. k .. "[" .. i .. "] is " .. tostring(acts[k][i]) .. ", not " .. tostring(want[k]))
        end
      end
      dest[i] = i - 1
    end
    local g = tamper_list[(r * 7) % (#tamper_list + 2)]
    if g then g(acts[keys[r % 6 + 1]]) end
    local f = tamper_outer[r % (#tamper_outer + 2)]
    if f then f(acts) end
    return dest, {}, {}
  end,
}`

// TestActColumnsLookFresh: rules that take their acts as columns get lists
// that look exactly as fresh ones, round after round, whatever the script
// did to last round's; and the ones it left alone are reused.
func TestActColumnsLookFresh(t *testing.T) {
	r := placedResolver(t, columnsRules)
	outerReused, listsReused := 0, 0
	for round := 1; round <= 40; round++ {
		acts, next := testActs(round)
		outer := r.actColumns.outer.t
		var lists [len(actKeys)]*lua.LTable
		for k := range lists {
			lists[k] = r.actColumns.lists[k].t
		}
		var out engine.Outcome
		if err := r.Resolve(round, acts, next, engine.NewRand(1, 2), &out); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if outer != nil && r.actColumns.outer.t == outer {
			outerReused++
		}
		for k := range lists {
			if lists[k] != nil && r.actColumns.lists[k].t == lists[k] {
				listsReused++
			}
		}
	}
	if outerReused == 0 || listsReused == 0 {
		t.Errorf("the table of columns reused %d times, the lists %d; both should be", outerReused, listsReused)
	}
}

// TestActsFormChecked: a rules table's acts field is "tables",
// "columns" or absent; anything else fails the load with the file named.
func TestActsFormChecked(t *testing.T) {
	for _, tc := range []struct{ acts, want string }{
		{``, ""},
		{`acts = "tables",`, ""},
		{`acts = "columns",`, ""},
		{`acts = "rows",`, `m/rules.lua: acts must be "tables" or "columns", or left out`},
		{`acts = 2,`, `m/rules.lua: acts must be "tables" or "columns", or left out`},
		{`acts = {},`, `m/rules.lua: acts must be "tables" or "columns", or left out`},
	} {
		src := `return { protocol = "squarebattle", ` + tc.acts + `
  place = function() return { 0 } end, over = function() return false end,
  resolve = function() return {}, {}, {} end }`
		cat, err := LoadCatalog(CatalogOptions{FS: fstest.MapFS{"rules.lua": {Data: []byte(src)}}, Dir: "m", Entry: "-"})
		if err != nil {
			t.Fatal(err)
		}
		id, _ := cat.classID("rules")
		r, err := NewResolver(cat, id, []string{"c"}, true, 1_000_000)
		if err == nil {
			r.Close()
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.acts, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.acts, err, tc.want)
		}
	}
}
