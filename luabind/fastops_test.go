package luabind

import (
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestFastPathsChargeAsGeneral runs stores, reads, lengths, comparisons
// and arithmetic, on the plain cases the fast paths take and on the ones
// next to them that they hand on, once with the fast paths (fastops.go)
// and once with the general wrappers alone: the instructions charged, the
// memory charged, the error and the values left in the tables must be the
// same, so that no battle changes by a single instruction.
func TestFastPathsChargeAsGeneral(t *testing.T) {
	const setup = `local u, m, s = {}, {}, "hello"
for i = 1, 50 do u[i] = i end
for i = 1, 25 do m[i] = i; m["k" .. i] = i end
local holes = {} for i = 1, 600 do holes[i] = i end for i = 2, 600 do holes[i] = nil end
local meta = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v) end, __index = function() return 0 end})
local long = string.rep("k", 300)
local function dump(t)
  local keys = {}
  for k, v in pairs(t) do keys[#keys + 1] = tostring(k) .. "=" .. tostring(v) end
  table.sort(keys)
  return table.concat(keys, ",")
end
local ops = {}
`
	bodies := map[string]string{
		"store in array":       `for i = 1, 50 do u[i] = i * 2 end return dump(u)`,
		"store nil in array":   `for i = 40, 50 do u[i] = nil end return dump(u) .. #u`,
		"append":               `local t = {} for i = 1, 1100 do t[i] = i end return #t .. dump(t)`,
		"append to empty":      `local t = {} t[1] = "a" t[2] = nil t[3] = "c" return dump(t) .. #t`,
		"store past a gap":     `local t = {} t[7] = 1 t[900] = 2 t[3] = 3 return dump(t) .. #t`,
		"store float and neg":  `local t = {1} t[1.5] = 1 t[-3] = 2 t[0] = 3 t[2 ^ 40] = 4 return dump(t)`,
		"store short string":   `local k = "key" for i = 1, 30 do m[k .. i] = i end m.k1 = nil m[k .. 2] = nil return dump(m)`,
		"store long string":    `for i = 1, 30 do m[long] = i end return dump(m)`,
		"store with meta":      `for i = 1, 30 do meta[i] = i meta["x" .. i] = i end return dump(meta)`,
		"store nil key":        `local t, k = {}, nil t[k] = 1`,
		"store nan key":        `local t = {} t[0 / 0] = 1`,
		"store in a number":    `local n = 5 n[1] = 2`,
		"read":                 `local x = 0 for i = 1, 60 do x = x + (u[i] or 0) + (m["k" .. i] or 0) + meta[i] end return x`,
		"read long":            `local x = m[long] return tostring(x)`,
		"length":               `return #u + #s + #holes + #m + #meta + #""`,
		"length of nil":        `local x return #x`,
		"compare":              `local n = 0 for i = 1, 50 do if u[i] < 25 then n = n + 1 end if u[i] == 7 then n = n + 1 end end return n`,
		"concat":               `local x = "" for i = 1, 40 do x = x .. i .. "," .. s .. 0.1 end return x`,
		"concat long":          `local x = long .. long .. long return #x`,
		"concat too long":      `local x = long for i = 1, 40 do x = x .. x end return #x`,
		"concat meta":          `local c = setmetatable({}, {__concat = function(a, b) return "m" end}) return "a" .. c .. "b" .. 1`,
		"concat nil":           `local y return "a" .. 1 .. y`,
		"concat at full stack": `local d = 0 local function f() local s = "x" .. d d = d + 1 f() end local ok, err = pcall(f) return d .. " " .. tostring(err)`,
		"arith":                `local x = 0 for i = 1, 50 do x = x + u[i] * 2 - i / 3 end return x`,
	}
	run := func(fast bool) map[string][3]any {
		fastPaths = fast
		defer func() { fastPaths = true }()
		got := map[string][3]any{}
		for name, body := range bodies {
			tm, tbl := stringTeam(t, setup+"ops.f = function() "+body+" end\nreturn { name = \"X\", run = function() end, ops = ops }", DefaultLimits())
			before := tm.charged
			tm.L.Push(tbl.RawGetString("ops").(*lua.LTable).RawGetString("f"))
			fault, msg, used := tm.callWithin(0, 1, 1<<20)
			result := ""
			if msg == "" {
				result = tm.L.Get(-1).String()
				tm.L.Pop(1)
			}
			got[name] = [3]any{used, tm.charged - before, fault.String() + " " + msg + " " + result}
		}
		return got
	}
	fast, general := run(true), run(false)
	for name := range bodies {
		if fast[name] != general[name] {
			t.Errorf("%s: with the fast paths (instructions, memory, outcome) %v, without %v", name, fast[name], general[name])
		}
	}
}

// TestIsNilMatchesComparison: isNil and isFalsy answer what the runtime's
// interface comparisons with lua.LNil and lua.LFalse answer, for a value
// of every kind (a second LNilType value and a false LBool made anew
// included).
func TestIsNilMatchesComparison(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	values := []lua.LValue{
		lua.LNil, lua.LValue(&lua.LNilType{}), lua.LFalse, lua.LTrue, lua.LBool(1 < 0),
		lua.LNumber(0), lua.LNumber(-1), lua.LString(""), lua.LString("nil"),
		L.NewTable(), L.NewFunction(func(*lua.LState) int { return 0 }), L.NewUserData(), L,
	}
	for i, v := range values {
		if got, want := isNil(v), v == lua.LNil; got != want {
			t.Errorf("value %d (%s): isNil %v, == LNil %v", i, v.Type(), got, want)
		}
		if got, want := isFalsy(v), v == lua.LNil || v == lua.LFalse; got != want {
			t.Errorf("value %d (%s): isFalsy %v, nil or false %v", i, v.Type(), got, want)
		}
	}
}
