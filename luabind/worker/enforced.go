package worker

import "github.com/squarebattle/squarebattle/engine/oslimit"

// AddressSpaceLimited reports whether this build's workers run under an
// address-space limit (isolation.memory_mib): on Linux, unless the race
// detector is on (it maps terabytes of shadow memory). Without it, a
// script that allocates without end takes the machine's memory before its
// worker dies; tests that field one skip.
func AddressSpaceLimited() bool { return oslimit.Enforced && !raceEnabled }
