package luabind

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/scripts"

	"github.com/squarebattle/squarebattle/engine"
)

// tamper replaces library functions every way a script can reach them, at
// its top level and again in every call.
const tamper = `
local function boom() error("tampered") end
local function spoil()
  string.format, string.rep, string.upper = boom, boom, boom
  table.insert, table.concat = boom, boom
  math.floor, math.max = boom, boom
  setmetatable(string, { __index = boom })
  setmetatable(math, { __index = boom })
  local mt = getmetatable("")
  if type(mt) == "table" then mt.__index = { rep = boom, format = boom } end
  team_memory.spoilt = true
end
spoil()
`

// honestWork uses what tamper spoils and fails if any of it changed.
const honestWork = `
local function check()
  local t = {}
  table.insert(t, "a")
  table.insert(t, "b")
  local s = string.format("%d-%s", 3, table.concat(t, ","))
  local r = ("ab"):rep(2) .. ("x"):upper()
  local f = math.floor(2.5) + math.max(1, 2)
  if s ~= "3-a,b" or r ~= "ababX" or f ~= 4 or string.nosuch ~= nil then
    error("libraries changed under me: " .. s .. " " .. r .. " " .. f)
  end
  return s
end
local name = check()
`

// TestLibrariesIsolatedAtLoad: a file that spoils the libraries at its top
// level, sorting before an honest one, does not change what the honest one
// loads with.
func TestLibrariesIsolatedAtLoad(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"aaa.lua":    tamper + `return { name = "Spoiler", run = function() spoil() end }`,
		"honest.lua": honestWork + `return { name = "Honest " .. name, run = function() check() end }`,
	}, DefaultLimits())
	for _, cls := range cat.All {
		if cls.Err != nil {
			t.Errorf("%s: %v", cls.ID, cls.Err)
		}
	}
	if p, err := cat.Find("honest"); err != nil || p.Name != "Honest 3-a,b" {
		t.Errorf("honest = %+v, %v", p, err)
	}
}

// TestLibrariesIsolatedInPlay: in one team, a class that spoils its
// libraries every round and replicates into an honest class does not change
// the honest class's libraries, nor the methods of strings.
func TestLibrariesIsolatedInPlay(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"aaa.lua": tamper + `return { name = "Spoiler", run = function(self)
		  spoil()
		  self.n = (self.n or 0) + 1
		  if self.n == 1 then return REPLICATE, E, "honest" end
		  if self.n == 8 then return REPLICATE, W, "honest" end
		end }`,
		"honest.lua": honestWork + `return { run = function(self)
		  check()
		  self.calls = (self.calls or 0) + 1
		  if not team_memory.spoilt then error("team_memory is no longer shared") end
		end }`,
		"idle.lua": idle,
	}, DefaultLimits())
	b, _ := battle(t, cat, []string{"aaa", "idle"}, engine.Options{Size: 9, Wrap: true, Rounds: 20, ReplicateRounds: 2, Seed: 5, Workers: 1})
	res := b.Run()
	if res.Teams[0].Stats.Births < 2 {
		t.Fatalf("the spoiler did not replicate: %+v", res.Teams[0].Stats)
	}
	if st := res.Teams[0].Stats; st.Errors != 0 || st.Timeouts != 0 {
		t.Errorf("stats %+v, problems %+v", st, res.FirstProblems)
	}
}

// TestLoadMemoryIsolated: a file that fills most of the memory bound at its
// top level does not make the next file's load fail.
func TestLoadMemoryIsolated(t *testing.T) {
	lim := DefaultLimits()
	lim.MemoryBytes = 1 << 20
	cat := catalogOf(t, map[string]string{
		"aaa.lua": `keep = { string.rep("a", 300000), string.rep("b", 300000), string.rep("c", 300000) }
		  return { name = "Filler", run = function() end }`,
		"bbb.lua": `local a, b = string.rep("y", 300000), string.rep("z", 300000)
		  return { name = "Next", run = function() return a .. b end }`,
	}, lim)
	for _, cls := range cat.All {
		if cls.Err != nil {
			t.Errorf("%s: %v", cls.ID, cls.Err)
		}
	}
}

// TestLoadBudgetIsOneCall: a top level gets limits.instructions, whatever
// the limit, and the message says so.
func TestLoadBudgetIsOneCall(t *testing.T) {
	lim := DefaultLimits()
	lim.Instructions = 500
	cat := catalogOf(t, map[string]string{
		"fits.lua":  `local n = 0 for i = 1, 100 do n = n + i end return { name = "Fits", run = function() end }`,
		"spins.lua": `local n = 0 for i = 1, 1000 do n = n + i end return { name = "Spins", run = function() end }`,
	}, lim)
	if p, err := cat.Find("fits"); err != nil || p.Err != nil {
		t.Errorf("fits: %v", err)
	}
	_, err := cat.Find("spins")
	if err == nil || !strings.Contains(err.Error(), "t/spins.lua:1: instruction budget exceeded: its top level ran more than 500 instructions (limits.instructions)") {
		t.Errorf("spins: %v", err)
	}
}

// TestStringMetatableProtected: getmetatable("") gives false, and what a
// script does to its string table does not reach methods on strings.
func TestStringMetatableProtected(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"probe.lua": `
		  local mt = getmetatable("")
		  string.rep = function() return "spoilt" end
		  string.shout = function(s) return s .. "!" end
		  local ok = pcall(function() return ("x"):shout() end)
		  local name = tostring(mt) .. " " .. ("ab"):rep(2) .. " " .. tostring(ok) .. " " .. tostring(("").__index)
		  return { name = name, run = function() end }`,
	}, DefaultLimits())
	if p, err := cat.Find("probe"); err != nil || p.Name != "false abab false nil" {
		t.Errorf("probe = %+v, %v", p, err)
	}
}

// BenchmarkLoadCatalog: listing a folder, the shipped players and a folder
// of files whose top level never ends (the worst a file can do to a
// listing: one full budget each).
func BenchmarkLoadCatalog(b *testing.B) {
	shipped := scripts.FS
	spin := fstest.MapFS{}
	for i := range 10 {
		spin[fmt.Sprintf("spin%d.lua", i)] = &fstest.MapFile{Data: []byte("local n = 0 while true do n = n + 1 end")}
	}
	for _, c := range []struct {
		name string
		fsys fs.FS
	}{{"shipped", shipped}, {"spin10", spin}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := LoadCatalog(CatalogOptions{FS: c.fsys, Dir: "d"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
