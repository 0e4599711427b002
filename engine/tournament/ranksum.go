package tournament

import "sort"

// ChallengeRow is one player's line in a challenge's final ranking.
type ChallengeRow struct {
	Player   int `json:"player"` // index into the players
	Solo     int `json:"solo"`   // score in the solo part
	KOTH     int `json:"koth"`   // score in the king-of-the-hill part
	SoloRank int `json:"solo_rank"`
	KOTHRank int `json:"koth_rank"`
	Sum      int `json:"rank_sum"`
	Place    int `json:"place"` // 1 is the winner; equal places are full ties
}

// Ranks gives competition ranks ("1224"): a player's rank is one more
// than the number of players with a strictly higher score, so equal
// scores share a rank.
func Ranks(scores []int) []int {
	ranks := make([]int, len(scores))
	for i, s := range scores {
		ranks[i] = 1
		for _, o := range scores {
			if o > s {
				ranks[i]++
			}
		}
	}
	return ranks
}

// RankSum is the battlesnake challenge's final scoring: players are ranked
// in each part separately (ties share a rank), the two ranks are summed,
// and the lowest sum wins; a tie goes to the better king-of-the-hill rank,
// then the better solo rank (which cannot differ once the sum and the
// king-of-the-hill rank are equal, so such players share their place).
// solo[i] and koth[i] are player i's scores.
// Rows come best first.
func RankSum(solo, koth []int) []ChallengeRow {
	sr, kr := Ranks(solo), Ranks(koth)
	rows := make([]ChallengeRow, len(solo))
	for i := range rows {
		rows[i] = ChallengeRow{Player: i, Solo: solo[i], KOTH: koth[i], SoloRank: sr[i], KOTHRank: kr[i], Sum: sr[i] + kr[i]}
	}
	key := func(r ChallengeRow) [3]int { return [3]int{r.Sum, r.KOTHRank, r.SoloRank} }
	less := func(a, b [3]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] < b[i]
			}
		}
		return false
	}
	sort.SliceStable(rows, func(i, j int) bool { return less(key(rows[i]), key(rows[j])) })
	for i := range rows {
		rows[i].Place = i + 1
		if i > 0 && key(rows[i]) == key(rows[i-1]) {
			rows[i].Place = rows[i-1].Place
		}
	}
	return rows
}
