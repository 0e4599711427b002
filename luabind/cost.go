package luabind

import lua "github.com/yuin/gopher-lua"

// The cost model: Go work charged as VM instructions.
//
// A builtin or an opcode is one VM instruction however much Go work it
// does, so everything whose work grows with its operands charges the
// budget in proportion to that work, before doing it, and is refused when
// the charge exceeds what is left. Each rate below is set so that one
// charged instruction stands for no more Go time than a typical VM
// instruction (about 30–50 ns here): a call that spends its whole budget
// on charged work ends within a small factor of a call that spends it on
// plain instructions. The first unit of each kind in a call is covered by
// the instruction that made the call (charges round down).
const (
	bytesPerInstruction  = 128 // bytes copied, compared, hashed or scanned
	stepsPerInstruction  = 8   // pattern-matching steps
	valuesPerInstruction = 4   // values moved on the stack or into a table
	keysPerInstruction   = 16  // table slots walked (live or dead keys)
	bytesPerValue        = 16  // memory charged per value stored (an interface)
	// A numeral's bytes cost far more than copied ones: strconv.ParseFloat
	// reads a long one at about 5 ns a byte (measured on 1,000 to 100,000
	// digits), so a string operand of arithmetic is charged at this rate.
	numeralBytesPerInstruction = 8
	// Bytes a builtin walks one at a time in Go to make its result
	// (changing case, reversing, quoting for %q), a fraction of a
	// nanosecond each where a copy moves them in blocks. Charged on top
	// of the bytes made: at the copy rate alone, string.upper of 800
	// bytes in a loop ran 12 times a full-budget call, past the 10×
	// bound.
	bytesWalkedPerInstruction = 32
	// What a conversion of string.format costs before the bytes it makes
	// (its flags and width read, its argument checked and converted):
	// eight 99-wide conversions a call ran 12–21 times a full-budget call.
	conversionCost = 1
	// What gsub's attempt to match at one more position costs before the
	// pattern's own steps, in steps: setting the matcher up again there.
	// Charged as one step, an 800-byte subject with a match at every byte
	// ran 13 times a full-budget call.
	attemptSteps = 2
)

// chargeValues charges for n values moved or stored: budget and memory.
func (tm *Team) chargeValues(L *lua.LState, n int64) {
	if n <= 0 {
		return
	}
	tm.charge(L, n/valuesPerInstruction)
	tm.charged += n * bytesPerValue
	if tm.charged > tm.headroom {
		tm.overHeadroom(L)
	}
}
