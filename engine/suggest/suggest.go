// Package suggest finds the name someone probably meant: the config's
// unknown keys and a script's undefined globals both say "did you mean".
package suggest

// Distance is the edit distance between a and b in bytes: insertions,
// deletions, substitutions and swaps of two neighbours each count one
// (optimal string alignment), so "maht" is one edit from "math". It takes
// O(len(a)·len(b)) time; callers bound the lengths.
func Distance(a, b string) int {
	// row r of the table is rows[r%3]; a swap looks two rows back
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		pp, prev, cur := rows[(i+1)%3], rows[(i+2)%3], rows[i%3]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
	}
	return rows[len(a)%3][len(b)]
}
