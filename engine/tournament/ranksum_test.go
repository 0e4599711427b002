package tournament

import (
	"reflect"
	"testing"
)

func TestRanks(t *testing.T) {
	cases := []struct {
		scores, want []int
	}{
		{[]int{10, 30, 20}, []int{3, 1, 2}},
		{[]int{5, 9, 9, 1}, []int{3, 1, 1, 4}},
		{[]int{7, 7, 7}, []int{1, 1, 1}},
		{nil, []int{}},
	}
	for _, c := range cases {
		if got := Ranks(c.scores); !reflect.DeepEqual(got, c.want) && len(c.scores) > 0 {
			t.Errorf("Ranks(%v) = %v, want %v", c.scores, got, c.want)
		}
	}
}

// TestRankSum pins the seed's final scoring: the lowest rank sum wins, a
// tie goes to the better king-of-the-hill rank, then the better solo rank;
// ranks within a part may tie.
func TestRankSum(t *testing.T) {
	cases := []struct {
		name       string
		solo, koth []int
		order      []int // players, best first
		places     []int
	}{
		{"lowest sum wins, a sum tie to the better KOTH rank", []int{100, 300, 200}, []int{100, 200, 300}, []int{2, 1, 0}, []int{1, 2, 3}},
		{"lowest sum wins", []int{100, 300, 200}, []int{100, 300, 200}, []int{1, 2, 0}, []int{1, 2, 3}},
		{"a sum tie goes to the better KOTH rank", []int{300, 100}, []int{100, 300}, []int{1, 0}, []int{1, 2}},
		{"tied ranks within a part", []int{50, 40, 30}, []int{10, 10, 20}, []int{0, 2, 1}, []int{1, 2, 3}},
		{"a full tie shares the place", []int{9, 9}, []int{4, 4}, []int{0, 1}, []int{1, 1}},
	}
	for _, c := range cases {
		rows := RankSum(c.solo, c.koth)
		var order, places []int
		for _, r := range rows {
			order = append(order, r.Player)
			places = append(places, r.Place)
			if r.Sum != r.SoloRank+r.KOTHRank {
				t.Errorf("%s: sum %d of ranks %d + %d", c.name, r.Sum, r.SoloRank, r.KOTHRank)
			}
		}
		if !reflect.DeepEqual(order, c.order) || !reflect.DeepEqual(places, c.places) {
			t.Errorf("%s: order %v places %v, want %v %v (rows %+v)", c.name, order, places, c.order, c.places, rows)
		}
	}
}
