package luabind

import (
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// actsRules checks, every round, that each act table looks as the engine
// makes it (its keys in order through next, its values, no metatable, no
// list part), then tampers with some: a key added, one deleted, a value
// changed, a metatable, a list entry, or nothing. A tampered table must
// not come back as it was left. The list of acts gets the same: checked
// (its length, its keys through next, no metatable), then now and then
// tampered with, or tampered with and kept, to be written to in the next
// round.
const actsRules = `
local kept -- a tampered list, written to in the next round
local tamper_list = {
  function(l) l.extra = true end,
  function(l) l.extra = true; l.extra = nil end,
  function(l) setmetatable(l, {}) end,
  function(l) l[#l + 1] = true end,
  function(l) table.remove(l) end,
  function(l) table.remove(l); l[#l + 1] = true end,
  function(l) l[1] = nil end,
  function(l) l[0] = true end,
  function(l) l.extra = true; kept = l end,
}
local tamper = {
  function(a) a.extra = true end,
  function(a) a.cell = nil end,
  function(a) a.cell = "moved" end,
  function(a) setmetatable(a, {}) end,
  function(a) a[1] = true end,
  function(a) a.extra = true; a.extra = nil end,
  -- enough dead keys that next compacts the table: its key list is then
  -- as long as the engine's but holds extra where cell was
  function(a)
    for k = 1, 40 do a["k" .. k] = true end
    for k = 1, 40 do a["k" .. k] = nil end
    a.cell, a.extra = nil, true
    for _ in pairs(a) do end
  end,
}
return {
  protocol = "squarebattle",
  place = function() return { 0 } end,
  over = function() return false end,
  resolve = function(game, acts, next_id)
    if kept then
      kept[1], kept = false, nil
    end
    local want_n, n = 20 - game.round() % 5, 0
    for k, v in pairs(acts) do
      n = n + 1
      if k ~= n or type(v) ~= "table" then error("round " .. game.round() .. ": acts has key " .. tostring(k) .. " after " .. (n - 1)) end
    end
    if n ~= want_n or #acts ~= want_n or getmetatable(acts) ~= nil then
      error("round " .. game.round() .. ": " .. n .. " acts and #acts " .. #acts .. " for " .. want_n .. (getmetatable(acts) and " (metatable)" or ""))
    end
    local dest = {}
    for i, a in ipairs(acts) do
      local keys = {}
      for k, v in pairs(a) do keys[#keys + 1] = k .. "=" .. tostring(v) end
      local want = "square=" .. (next_id + i) .. " team=" .. (i % 3) .. " cell=" .. (i - 1)
        .. " action=" .. (i % 2 == 0 and "replicate" or "wait") .. " target=" .. (i % 2 == 0 and i or -1)
      if i % 2 == 0 then want = want .. " child=c" end
      local got = table.concat(keys, " ")
      if got ~= want or getmetatable(a) ~= nil or a[1] ~= nil then
        error("round " .. game.round() .. ", act " .. i .. ": " .. got .. (getmetatable(a) and " (metatable)" or "") .. (a[1] and " (a list entry)" or ""))
      end
      local f = tamper[(i + game.round()) % (#tamper + 2)]
      if f then f(a) end
      dest[i] = a.cell == nil and i - 1 or tonumber(a.cell) or i - 1
    end
    local g = tamper_list[game.round() % (#tamper_list + 3)]
    if g then g(acts) end
    return dest, {}, {}
  end,
}`

// TestActTablesLookFresh: resolve is handed act tables that look exactly
// as fresh ones, round after round, whatever the script did to last
// round's; and the ones it left alone are reused.
func TestActTablesLookFresh(t *testing.T) {
	r := placedResolver(t, actsRules)
	reused, listReused := 0, 0
	for round := 1; round <= 24; round++ {
		acts, next := testActs(round)
		before := map[*lua.LTable]bool{}
		for _, ts := range r.acts.tables {
			for _, tb := range ts {
				before[tb.t] = true
			}
		}
		list := r.actList.t
		var out engine.Outcome
		if err := r.Resolve(round, acts, next, engine.NewRand(1, 2), &out); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if list != nil && r.actList.t == list {
			listReused++
		}
		for _, ts := range r.acts.tables {
			for _, tb := range ts {
				if before[tb.t] {
					reused++
				}
			}
		}
	}
	if reused == 0 || listReused == 0 {
		t.Errorf("%d act tables and %d lists of acts reused; both should be", reused, listReused)
	}
}

// placedResolver loads the rules script src as m/rules.lua and places one
// team on an 8×8 board; it is closed when the test ends.
func placedResolver(t *testing.T, src string) *Resolver {
	t.Helper()
	cat, err := LoadCatalog(CatalogOptions{FS: fstest.MapFS{"rules.lua": {Data: []byte(src)}}, Dir: "m", Entry: "-"})
	if err != nil {
		t.Fatal(err)
	}
	id, _ := cat.classID("rules")
	r, err := NewResolver(cat, id, []string{"c"}, true, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	if _, err := r.Place(8, 1, engine.NewRand(1, 1)); err != nil {
		t.Fatal(err)
	}
	return r
}

// testActs are the acts the act tests hand resolve in a round, and the
// round's next id: 20 - round%5 squares with ids from next+1, square i of
// team i%3 on cell i-1; the even ones replicate into cell i as class c.
func testActs(round int) ([]engine.Act, engine.SquareID) {
	next := engine.SquareID(100 * round)
	var acts []engine.Act
	for i := 1; i <= 20-round%5; i++ {
		a := engine.Act{Square: next + engine.SquareID(i), Team: i % 3, Cell: i - 1, Action: engine.Wait, Target: -1, Child: engine.NoClass}
		if i%2 == 0 {
			a.Action, a.Target, a.Child = engine.Replicate, i, 0
		}
		acts = append(acts, a)
	}
	return acts, next
}
