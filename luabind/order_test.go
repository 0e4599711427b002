package luabind

import (
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestLibraryOrderIsFixed: the order pairs visits the globals and every
// library table in is the same in every fresh state, so that a script
// walking them plays the same battle from the same seed. gopher-lua builds
// some of them from Go maps, whose order changes from run to run.
func TestLibraryOrderIsFixed(t *testing.T) {
	const src = `local out = {}
local function walk(name, t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = tostring(k) end
  out[#out + 1] = name .. "=" .. table.concat(ks, ",")
end
walk("_G", _G)
for _, name in ipairs({ "string", "table", "math" }) do walk(name, _G[name]) end
ORDER = out
return { name = "Order", run = function(self)
  for _, line in ipairs(ORDER) do print(line) end
  return WAIT
end }`
	orders := map[string]map[string]bool{} // table → orders seen
	for range 24 {
		cat := catalogOf(t, map[string]string{"order.lua": src}, DefaultLimits())
		bt, teams := battle(t, cat, []string{"order", "order"}, engine.Options{Size: 8, Rounds: 2, Seed: 1, Workers: 1})
		bt.Step()
		for _, tm := range teams {
			for _, line := range tm.Log() {
				name, keys, _ := strings.Cut(line, "=")
				if orders[name] == nil {
					orders[name] = map[string]bool{}
				}
				orders[name][keys] = true
			}
		}
	}
	tests := []struct {
		table string
		want  string // a part of the order every state must show
	}{
		{"_G", "WAIT,MOVE,ATTACK,REPLICATE"},
		{"string", "byte,char,find,format"},
		{"table", "concat,getn,insert,maxn,remove,sort"},
		{"math", "abs,acos,asin"},
	}
	for _, tc := range tests {
		seen := orders[tc.table]
		if len(seen) != 1 {
			t.Errorf("%s: %d different orders in 48 states: %v", tc.table, len(seen), seen)
			continue
		}
		for order := range seen {
			if !strings.Contains(order, tc.want) {
				t.Errorf("%s: %s, without %s", tc.table, order, tc.want)
			}
		}
	}
}
