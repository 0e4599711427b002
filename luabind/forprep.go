package luabind

import lua "github.com/yuin/gopher-lua"

// forPrepOp is FORPREP as Lua 5.1 runs it: the initial value, limit and
// step of a numeric for may be strings that read as numbers
// (for i = "10", "1", "-2"), converted as arithmetic converts them
// (charged by their length), and anything else is an error in Lua's
// words. Numbers go straight to gopher-lua's entry.
func (b *budget) forPrepOp(orig instFunc) instFunc {
	return func(L *lua.LState, inst uint32, baseframe *frame) int {
		cf, r := current(L), regs(L)
		RA := cf.LocalBase + argA(inst)
		if RA+2 < len(r.array) {
			for i, what := range [3]string{"initial value", "limit", "step"} {
				v := r.array[RA+i]
				if _, ok := v.(lua.LNumber); ok {
					continue
				}
				n, ok := b.coerce(L, v)
				if !ok {
					L.RaiseError("'for' %s must be a number", what)
				}
				r.array[RA+i] = n
			}
		}
		return orig(L, inst, baseframe)
	}
}
