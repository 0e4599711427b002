package luabind

import lua "github.com/yuin/gopher-lua"

// byteMeter charges a string that a builtin builds piece by piece (format,
// gsub, and any other builder): before each piece is appended, the total
// is checked against limits.string_bytes and the new bytes are charged to
// the budget and to the team's memory. The budget is charged on the running
// total, so a million one-byte pieces cost as much as one piece of a
// megabyte: linear in the result, never in the number of pieces, and never
// more than once per byte (charging the whole result so far at each step
// would make an honest gsub quadratic).
type byteMeter struct {
	tm *Team
	n  int64 // bytes charged so far
}

// add charges n more bytes, or raises the length or budget error first.
func (m *byteMeter) add(L *lua.LState, n int) {
	if n <= 0 {
		return
	}
	total := m.n + int64(n)
	if total > int64(m.tm.limits.StringBytes) {
		m.tm.tooLong(L, total)
	}
	m.tm.charge(L, total/bytesPerInstruction-m.n/bytesPerInstruction)
	m.tm.chargeMemory(L, int64(n))
	m.n = total
}
