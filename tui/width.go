package tui

import "github.com/rivo/uniseg"

// textWidth is the columns str takes on a terminal, uniseg.StringWidth's
// answer, without asking uniseg when str is printable ASCII: every byte
// is then a grapheme of its own one column wide. Nearly all the status
// bar, the team table and the key hints are such text, and measuring it
// through uniseg's grapheme tables on every frame of every viewer cost
// the SSH arena about a tenth of its CPU.
func textWidth(str string) int {
	for i := 0; i < len(str); i++ {
		if c := str[i]; c < 0x20 || c > 0x7e {
			return uniseg.StringWidth(str)
		}
	}
	return len(str)
}
