package luabind

import lua "github.com/yuin/gopher-lua"

// meter charges work that comes in pieces smaller than an instruction, one
// piece at a time and before each: a comparison, a value moved, a few
// bytes compared. tm.charge rounds each charge down, so charging the pieces
// one by one would never charge anything; the meter keeps the fraction
// owed and charges each whole instruction as soon as it is owed.
type meter struct {
	tm   *Team
	L    *lua.LState
	owed int64 // in 1/meterScale of an instruction
}

// meterScale divides an instruction finely enough for every rate in
// cost.go (each divides it).
const meterScale = bytesPerInstruction

// add charges for n pieces of work of which perInstruction cost one
// instruction, raising the budget error when the budget is spent.
func (m *meter) add(n, perInstruction int64) {
	m.owed += n * (meterScale / perInstruction)
	if m.owed >= meterScale {
		m.tm.charge(m.L, m.owed/meterScale)
		m.owed %= meterScale
	}
}

// instructions charges n whole instructions.
func (m *meter) instructions(n int64) {
	m.tm.charge(m.L, n)
}
