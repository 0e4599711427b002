package luabind

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// The string library is checked against Debian's lua5.1 (Lua 5.1.5): the
// expected outputs of lua51StringCases (strings_lua51_cases_test.go) were
// printed by lua5.1 running testdata/strings/harness.lua over the cases that
// testdata/strings/gen.py generates (seeded) plus testdata/strings/edge.txt:
//
//	cd luabind/testdata/strings && python3 gen.py ../../strings_lua51_cases_test.go
//
// harness.lua turns each result into text the same way in both
// interpreters: numbers with %.14g, bytes outside letters, digits,
// punctuation and space as \ddd, and errors without their position.

// stringTeam loads a class whose top level is src in a fresh team with a
// large budget and returns the team and the table the script returned.
func stringTeam(t testing.TB, src string, lim Limits) (*Team, *lua.LTable) {
	t.Helper()
	cat := catalogOf(t, map[string]string{"x.lua": src}, lim)
	if len(cat.All) != 1 || cat.All[0].Err != nil {
		t.Fatalf("the script does not load: %v", cat.All[0].Err)
	}
	tm := NewTeam(TeamOptions{Catalog: cat, Entry: "-"})
	t.Cleanup(tm.Close)
	cs := tm.class(0)
	if cs.err != "" {
		t.Fatal(cs.err)
	}
	return tm, cs.table
}

// luaResults runs every Lua expression of codes through the harness in the
// sandbox and returns one line of text per expression.
func luaResults(t *testing.T, codes []string) []string {
	t.Helper()
	head, err := os.ReadFile("testdata/strings/harness.lua")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.Write(head)
	for _, c := range codes {
		sb.WriteString("show(function() return pack(" + c + ") end)\n")
	}
	sb.WriteString("return { name = \"X\", run = function() end, out = out }\n")
	lim := DefaultLimits()
	lim.Instructions = 10_000_000 / loadBudgetFactor
	_, tbl := stringTeam(t, sb.String(), lim)
	out := tbl.RawGetString("out").(*lua.LTable)
	res := make([]string, len(codes))
	for i := range res {
		res[i] = lua.LVAsString(out.RawGetInt(i + 1))
	}
	return res
}

func TestStringsLikeLua51(t *testing.T) {
	codes := make([]string, len(lua51StringCases))
	for i, c := range lua51StringCases {
		codes[i] = c.code
	}
	got := luaResults(t, codes)
	if len(got) < 400 {
		t.Fatalf("%d cases", len(got))
	}
	for i, c := range lua51StringCases {
		if got[i] != c.want {
			t.Errorf("%s\n got %q\nwant %q", c.code, got[i], c.want)
		}
	}
}

// callField calls the function field name of tbl with no arguments under
// a budget of limit instructions, as the engine calls a square.
func callField(tm *Team, tbl *lua.LTable, name string, limit int) (engine.Fault, string, int) {
	tm.L.Push(tbl.RawGetString(name))
	f, msg, used := tm.callWithin(0, 1, limit)
	tm.L.SetTop(0)
	return f, msg, used
}

// TestStringCosts: honest work fits in an ordinary call's budget and costs
// in proportion to its size; hostile work is stopped by the budget, the
// length limit or an argument error before it is done.
func TestStringCosts(t *testing.T) {
	src := `local big = string.rep("a", 131072)
	local spaced = string.rep("word ", 1640) -- 8,200 bytes
	local codes = { string.byte(string.rep("A", 1000), 1, -1) }
	return { name = "X", run = function() end,
	  gsub8k = function() return (spaced:gsub(" ", "_")) end,
	  gsub8kfn = function() return (spaced:gsub("%w+", function(w) return w end)) end,
	  gsubpieces = function() return (spaced:gsub(" ", "")) end,
	  gfind = function() for x in string.gfind(("a"):rep(28), "a*a*a*a*a*a*a*a*b") do end end,
	  gmatchbt = function() for x in string.gmatch(("a"):rep(28), "a*a*a*a*a*a*a*a*b") do end end,
	  formattable = function() return string.format("%d", {}) end,
	  formatwidth = function() return string.format("%099999999d", 1) end,
	  formatbig = function() return string.format("%s%s%s%s%s%s%s%s%s", big, big, big, big, big, big, big, big, big) end,
	  repbig = function() return string.rep("x", 1e300) end,
	  rephuge = function() return string.rep("xy", 2^40) end,
	  charflood = function() return string.char(unpack(codes)) end,
	  upper = function() return big:upper() end,
	  gsubgrow = function() return (big:gsub("a", "aaaa")) end,
	  findplain = function() return big:find("b", 1, true) end,
	  sub1 = function() return big:sub(5, 5) end,
	}`
	lim := DefaultLimits()
	tm, tbl := stringTeam(t, src, lim)
	tests := []struct {
		name    string
		fault   engine.Fault
		shown   string
		maxUsed int // instructions, for the honest cases
	}{
		// Each of the 8,200 positions is an attempt (attemptSteps).
		{"gsub8k", engine.NoFault, "", 6000},
		{"gsub8kfn", engine.NoFault, "", 6000},
		{"gsubpieces", engine.NoFault, "", 6000},
		{"gfind", engine.FaultTimeout, "instruction budget", 0},
		{"gmatchbt", engine.FaultTimeout, "instruction budget", 0},
		{"formattable", engine.FaultError, "bad argument #2 to 'format' (number expected, got table)", 0},
		{"formatwidth", engine.FaultError, "invalid format (width or precision too long)", 0},
		{"formatbig", engine.FaultError, "limits.string_bytes", 0},
		{"repbig", engine.FaultError, "no integer representation", 0},
		{"rephuge", engine.FaultError, "limits.string_bytes", 0},
		// unpack (1,000 values, read from the array part, see
		// listReadCost), the call moving them, char
		{"charflood", engine.NoFault, "", 1000 + int(listReadCost(1, 1000))},
		{"upper", engine.NoFault, "", 6000}, // 131,072 bytes walked (bytesWalkedPerInstruction)
		{"gsubgrow", engine.FaultTimeout, "instruction budget", 0},
		{"findplain", engine.NoFault, "", 3000},
		{"sub1", engine.NoFault, "", 10},
	}
	for _, tc := range tests {
		f, msg, used := callField(tm, tbl, tc.name, lim.Instructions)
		switch {
		case f != tc.fault:
			t.Errorf("%s: fault %v (%s), want %v", tc.name, f, msg, tc.fault)
		case !strings.Contains(msg, tc.shown):
			t.Errorf("%s: %q, want it to contain %q", tc.name, msg, tc.shown)
		case tc.fault == engine.NoFault && used > tc.maxUsed:
			t.Errorf("%s: %d instructions, want at most %d", tc.name, used, tc.maxUsed)
		}
		t.Logf("%s: %d instructions %s", tc.name, used, msg)
	}
}

// TestStringDeviations pins the documented differences from Lua 5.1 on a
// PC: integer arguments beyond ±2^53, NaN or infinite are errors (the C
// cast differs between machines); and what is not one: string.format's
// integer conversions print what Debian's lua5.1 prints on a PC for any
// number (strformat.go).
func TestStringDeviations(t *testing.T) {
	got := luaResults(t, []string{
		`string.format("%d", 2^63)`,
		`string.format("%x", 1/0)`,
		`string.find("abc", "b", 0/0)`,
		`string.rep("x", 1e300)`,
		`string.format("%f|%g|%5.1e|%+G", 0/0, -(0/0), 0/0, 0/0)`,
		`string.sub("abc", 2^53 + 2)`,
		`string.format("%d|%x|%o|%u|[%c]", 2^53 + 2, -1, 0/0, 2^64, 2^31 + 65)`,
	})
	want := []string{
		"-9223372036854775808",
		"0",
		"error: bad argument #3 to 'find' (number has no integer representation (-nan is not between -2^53 and 2^53))",
		"error: bad argument #2 to 'rep' (number has no integer representation (1e+300 is not between -2^53 and 2^53))",
		"-nan|nan| -nan|-NAN", // as lua5.1 prints them on a PC (nan.go)
		"error: bad argument #2 to 'sub' (number has no integer representation (9.007199254741e+15 is not between -2^53 and 2^53))",
		"9007199254740994|ffffffffffffffff|1000000000000000000000|0|[]",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// TestStringPartsDoNotPin: every string the library returns keeps at most
// max(its length, pinSlack) bytes alive, however the parts are chained.
func TestStringPartsDoNotPin(t *testing.T) {
	tm := NewTeam(TeamOptions{Catalog: catalogOf(t, map[string]string{"x.lua": idle}, DefaultLimits()), Entry: "-"})
	defer tm.Close()
	L := tm.L
	tm.budget.reset(1 << 30)
	big := strings.Repeat("abcdefgh", 1<<17)
	inside := func(s, parent string) bool {
		if len(s) == 0 || len(parent) == 0 {
			return false
		}
		p := uintptr(unsafe.Pointer(unsafe.StringData(parent)))
		q := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		return q >= p && q < p+uintptr(len(parent))
	}
	cur := big
	for _, n := range []int{len(big) * 3 / 4, len(big) / 2, 1000, 100, pinSlack, 10, 1} {
		v := string(tm.part(L, cur, 1, 1+n).(lua.LString))
		if len(v) != n || v != cur[1:1+n] {
			t.Fatalf("part of %d bytes is %d bytes", n, len(v))
		}
		shared := inside(v, big)
		if shared && len(big) > max(n, pinSlack) {
			t.Errorf("a part of %d bytes shares the %d-byte string", n, len(big))
		}
		cur = v
	}
	small := "0123456789"
	if v := string(tm.part(L, small, 2, 5).(lua.LString)); v != "234" {
		t.Errorf("part = %q", v)
	}
}

// TestStringLibraryIsOurs: the string table (and the string metatable's
// __index) holds exactly the project's functions, none of gopher-lua's.
func TestStringLibraryIsOurs(t *testing.T) {
	theirs := map[uintptr]string{}
	plain := lua.NewState()
	defer plain.Close()
	lib := plain.GetGlobal("string").(*lua.LTable)
	lib.ForEach(func(k, v lua.LValue) {
		if fn, ok := v.(*lua.LFunction); ok && fn.IsG {
			theirs[reflect.ValueOf(fn.GFunction).Pointer()] = k.String()
		}
	})
	tm := NewTeam(TeamOptions{Catalog: catalogOf(t, map[string]string{"x.lua": idle}, DefaultLimits()), Entry: "-"})
	defer tm.Close()
	ours := tm.base.RawGetString("string").(*lua.LTable)
	// The string metatable is protected (isolate.go): its __index is a
	// private copy of the string table, with the same functions.
	if mt := tm.L.GetMetatable(lua.LString("")); mt != lua.LFalse {
		t.Errorf("getmetatable(\"\") = %v, want false", mt)
	}
	idx := tm.L.GetMetaField(lua.LString(""), "__index").(*lua.LTable)
	if idx == ours {
		t.Errorf("the string metatable's __index is the string table itself")
	}
	for k, v := ours.Next(lua.LNil); k != lua.LNil; k, v = ours.Next(k) {
		if idx.RawGet(k) != v {
			t.Errorf("the string metatable's __index has another %s", k)
		}
	}
	var names []string
	for k, v := ours.Next(lua.LNil); k != lua.LNil; k, v = ours.Next(k) {
		names = append(names, k.String())
		fn, ok := v.(*lua.LFunction)
		if !ok || !fn.IsG {
			t.Errorf("string.%s is a %s", k, v.Type())
			continue
		}
		if name, found := theirs[reflect.ValueOf(fn.GFunction).Pointer()]; found {
			t.Errorf("string.%s is gopher-lua's %s", k, name)
		}
	}
	want := "byte char find format gfind gmatch gsub len lower match rep reverse sub upper"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("string table: %s\nwant %s (in this order)", got, want)
	}
	if ours.RawGetString("gfind") != ours.RawGetString("gmatch") {
		t.Errorf("gfind is not gmatch")
	}
}

// TestStringIteratorAndCacheMemory: a gmatch iterator's subject is seen by
// the census; the compiled-pattern cache stays within its bounds under a
// flood of distinct patterns.
func TestStringIteratorAndCacheMemory(t *testing.T) {
	src := `local keep = {}
	return { name = "X", run = function() end,
	  hoard = function()
	    for i = 1, 8 do keep[i] = string.gmatch(string.rep(string.char(64 + i), 1048576), ".") end
	  end,
	  flood = function()
	    local base = string.rep("x", 1000)
	    for i = 1, 2000 do string.find("abc", base .. i .. "%d") end
	  end,
	}`
	lim := DefaultLimits()
	tm, tbl := stringTeam(t, src, lim)
	before, _ := tm.census()
	if f, msg, _ := callField(tm, tbl, "hoard", 1<<30); f != engine.NoFault { // a budget for building 8 MiB: this is about counting
		t.Fatalf("hoard: %s", msg)
	}
	if after, _ := tm.census(); after-before < 8<<20 {
		grown := after - before
		t.Errorf("8 iterators over 1 MiB subjects: the census grew by %d bytes", grown)
	}
	if f, msg, _ := callField(tm, tbl, "flood", 1<<30); f != engine.NoFault {
		t.Fatalf("flood: %s", msg)
	}
	if n, b := len(tm.patterns.m), tm.patterns.bytes; n > maxCachedPatterns || b > maxPatternCacheBytes || n == 0 {
		t.Errorf("pattern cache: %d entries, %d bytes", n, b)
	}
}

// TestFormatFloatWork: a float conversion that strconv does with exact
// decimal arithmetic (every %f, %e and %g past 18 digits) is charged by
// the number's binary exponent before it is done (floatWork), so that a
// format string of such conversions runs out of budget after about as
// many of them as the budget's plain instructions would take; the fast
// conversions cost nothing more than their bytes.
func TestFormatFloatWork(t *testing.T) {
	src := `local function many(f, x, n)
	  local args = {}
	  for i = 1, n do args[i] = x end
	  return function() return string.format(string.rep(f, n), unpack(args)) end
	end
	return { name = "X", run = function() end,
	  e99tiny = many("%.99e", 2^-1022, 40),
	  e18big = many("%.18e", 1e300, 40),
	  fbig = many("%f", 1e308, 40),
	  fnegbig = many("%99.99f", -1.7976931348623157e308, 40),
	  gsub = many("%.30g", 5e-324, 40),
	  one = function() return string.format("%.99e", 2^-1022) end,
	  honestf = many("%.2f", 123.456, 40),
	  honestg = many("%.14g", 2^-1022, 40),
	  honeste = many("%.17e", 1e300, 40),
	  special = many("%.99f", 1/0, 40),
	}`
	lim := DefaultLimits()
	tm, tbl := stringTeam(t, src, lim)
	tests := []struct {
		name             string
		fault            engine.Fault
		minUsed, maxUsed int
	}{
		{"e99tiny", engine.FaultTimeout, 0, 0},
		{"e18big", engine.FaultTimeout, 0, 0},
		{"fbig", engine.FaultTimeout, 0, 0},
		{"fnegbig", engine.FaultTimeout, 0, 0},
		{"gsub", engine.FaultTimeout, 0, 0},
		{"one", engine.NoFault, 2000, 2500},
		{"honestf", engine.NoFault, 0, 100},
		{"honestg", engine.NoFault, 0, 100},
		{"honeste", engine.NoFault, 0, 100},
		{"special", engine.NoFault, 0, 100},
	}
	for _, tc := range tests {
		f, msg, used := callField(tm, tbl, tc.name, lim.Instructions)
		switch {
		case f != tc.fault:
			t.Errorf("%s: fault %v (%s), want %v", tc.name, f, msg, tc.fault)
		case tc.fault == engine.FaultTimeout && !strings.Contains(msg, "instruction budget"):
			t.Errorf("%s: %q, want the budget's error", tc.name, msg)
		case tc.fault == engine.NoFault && (used < tc.minUsed || used > tc.maxUsed):
			t.Errorf("%s: %d instructions, want %d to %d", tc.name, used, tc.minUsed, tc.maxUsed)
		}
		t.Logf("%s: %d instructions %s", tc.name, used, msg)
	}
}
