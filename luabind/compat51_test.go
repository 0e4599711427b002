package luabind

import (
	"strings"
	"testing"
)

// TestCompat51: Lua 5.1's deprecated functions behave as in Lua 5.1, and a
// loop through them pays for its calls even when the function is free.
func TestCompat51(t *testing.T) {
	got := luaResults(t, []string{
		`math.mod(7, 3), math.mod(-7, 3), math.mod("7.5", 2)`,
		`table.foreach({10, 20, 30}, function(k, v) if v == 20 then return k end end)`,
		`table.foreachi({10, 20, 30, nil, 50}, function(i, v) if v == nil then return "hole" end end)`,
		`(function() local n = 0 table.foreach({a = 1, b = 2, 3}, function() n = n + 1 end) return n end)()`,
		`table.setn({}, 3)`,
		`type(gcinfo()), gcinfo() >= 0, gcinfo() == math.floor(gcinfo())`,
	})
	want := []string{
		"n:1\tn:-1\tn:1.5",
		"n:2",
		"hole", // the border is 5, as in Lua 5.1
		"n:3",
		"error: 'setn' is obsolete",
		"number\tboolean:true\tboolean:true",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d: got %q, want %q", i, got[i], want[i])
		}
	}

	src := `local big = {} for i = 1, 1500 do big[i] = i end
	return { name = "X", run = function() end,
		free = function() table.foreachi(big, math.randomseed) end,
		walk = function() table.foreach(big, math.randomseed) end }`
	tm, tbl := stringTeam(t, src, DefaultLimits())
	for _, name := range []string{"free", "walk"} {
		f, msg, used := callField(tm, tbl, name, 500)
		if f == 0 || !strings.Contains(msg, "budget") && !strings.Contains(msg, "instruction") {
			t.Errorf("%s: 1,500 calls within 500 instructions: fault %v %q (%d used)", name, f, msg, used)
		}
	}
}
