package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"abc", "", 3}, {"ATACK", "ATTACK", 1}, {"maht", "math", 1}, {"kitten", "sitting", 3}, {"ab", "ba", 1}, {"abc", "abc", 0}, {"ca", "abc", 3}} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
