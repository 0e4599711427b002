package tui

import (
	"testing"

	"github.com/rivo/uniseg"
)

// TestTextWidth: textWidth measures exactly as uniseg does, on printable
// ASCII (its fast path) and on everything around it.
func TestTextWidth(t *testing.T) {
	cases := []string{"", " ", "Round 12/300", "seed 1234567890123456", "~!@#$%^&*()_+{}|:\"<>?`-=[]\\;',./",
		"a\tb", "a\nb", "\r\n", "\x1b[31m", "\x7f", "x\x00y", "│", " · ", "…", "é", "e\u0301", "日本", "🙂", "👩‍👩‍👧",
		"abc│def", "Round 5 · ? help", "\u00a0"}
	for c := 0; c < 0x80; c++ {
		cases = append(cases, string(rune(c)), "ab"+string(rune(c))+"cd")
	}
	for _, s := range cases {
		if got, want := textWidth(s), uniseg.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, uniseg says %d", s, got, want)
		}
	}
}
