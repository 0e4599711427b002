package luabind

// A team's build buffer: string.format and string.gsub build their result
// by appending to a buffer and then copy it into the string they return.
// A fresh buffer per call grew by doubling from a few bytes: each byte of
// the result was allocated, cleared and copied several times over, which
// made a loop of eight 99-wide conversions run 22 times a full-budget
// call (growslice a third of its time) while charged for its bytes once.
// The team keeps the buffer between calls instead, so a result costs one
// copy into its string, as the bytes charge (bytesPerInstruction) says.
//
// A call takes the buffer and gives it back when it is done: a builtin
// that runs Lua meanwhile (gsub's function or table) and is called again
// from there finds none and builds in a fresh one. A call that raises
// never gives it back, and the next takes a fresh one. Only a buffer of
// at most maxKeptBuild bytes is kept: a team never holds more than that
// outside its census, whatever the strings it makes.

// maxKeptBuild bounds the buffer a team keeps between calls.
const maxKeptBuild = 64 << 10

// takeBuild hands out the team's build buffer, empty (nil if it has none).
func (tm *Team) takeBuild() []byte {
	b := tm.build[:0]
	tm.build = nil
	return b
}

// giveBuild takes a build buffer back once its bytes are copied out.
func (tm *Team) giveBuild(b []byte) {
	if cap(b) <= maxKeptBuild {
		tm.build = b
	}
}
