package main

import (
	"encoding/json"
	"math/rand/v2"
)

// offsets are the row and column steps of the eight directions in view
// order: nw n ne e se s sw w (row 0 is the bottom, so n is row + 1).
var offsets = [8][2]int{{1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}}

// squares attacks an adjacent enemy, otherwise replicates into (or, past
// a hundred squares, moves onto) a random empty neighbour no other square
// of the team is heading for.
func squares(h *hello, m *message, rng *rand.Rand) []any {
	taken := map[[2]int]bool{}
	acts := []any{}
	for _, s := range m.Squares {
		var enemies, empty []int
		for d, v := range s.View {
			switch {
			case v >= 0 && v != h.Team:
				enemies = append(enemies, d)
			case v == -1:
				empty = append(empty, d)
			}
		}
		if len(enemies) > 0 {
			acts = append(acts, map[string]any{"id": s.ID, "do": "attack", "dir": enemies[rng.IntN(len(enemies))]})
			continue
		}
		rng.Shuffle(len(empty), func(i, j int) { empty[i], empty[j] = empty[j], empty[i] })
		for _, d := range empty {
			r, c := s.Row+offsets[d][0], s.Col+offsets[d][1]
			if h.Wrap {
				r, c = (r+h.Size)%h.Size, (c+h.Size)%h.Size
			}
			if taken[[2]int{r, c}] {
				continue
			}
			taken[[2]int{r, c}] = true
			do := "replicate"
			if len(m.Squares) > 100 {
				do = "move"
			}
			acts = append(acts, map[string]any{"id": s.ID, "do": do, "dir": directionNames[d]})
			break
		}
	}
	return acts
}

var directionNames = [8]string{"nw", "n", "ne", "e", "se", "s", "sw", "w"}

var steps = map[string][2]int{"up": {0, 1}, "down": {0, -1}, "left": {-1, 0}, "right": {1, 0}}
var stepNames = []string{"up", "down", "left", "right"}

type xy struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// paint sends each worker to a neighbouring cell the team has not painted
// yet, or anywhere on the canvas when there is none.
func paint(h *hello, raw json.RawMessage, rng *rand.Rand) []string {
	var v struct {
		Team  int   `json:"team"`
		Size  int   `json:"size"`
		Paint []int `json:"paint"`
		Mine  []xy  `json:"mine"`
	}
	json.Unmarshal(raw, &v)
	orders := make([]string, len(v.Mine))
	for w, p := range v.Mine {
		var fresh, inside []string
		for _, n := range stepNames {
			x, y := p.X+steps[n][0], p.Y+steps[n][1]
			if x < 0 || y < 0 || x >= v.Size || y >= v.Size {
				continue
			}
			inside = append(inside, n)
			if i := y*v.Size + x; i < len(v.Paint) && v.Paint[i] != v.Team {
				fresh = append(fresh, n)
			}
		}
		switch {
		case len(fresh) > 0:
			orders[w] = fresh[rng.IntN(len(fresh))]
		case len(inside) > 0:
			orders[w] = inside[rng.IntN(len(inside))]
		}
	}
	return orders
}

// snake heads for the pellet along moves that hit no wall and no body.
func snake(raw json.RawMessage) string {
	var v struct {
		Me     int `json:"me"`
		Size   int `json:"size"`
		Pellet *xy `json:"pellet"`
		Snakes []struct {
			Body []xy `json:"body"`
		} `json:"snakes"`
	}
	json.Unmarshal(raw, &v)
	if v.Me < 0 || v.Me >= len(v.Snakes) || len(v.Snakes[v.Me].Body) == 0 {
		return "up"
	}
	blocked := map[xy]bool{}
	for _, s := range v.Snakes {
		for _, p := range s.Body {
			blocked[p] = true
		}
	}
	head := v.Snakes[v.Me].Body[0]
	best, bestDist := "", 1<<30
	for _, n := range stepNames {
		p := xy{head.X + steps[n][0], head.Y + steps[n][1]}
		if p.X < 0 || p.Y < 0 || p.X >= v.Size || p.Y >= v.Size || blocked[p] {
			continue
		}
		d := 0
		if v.Pellet != nil {
			d = abs(p.X-v.Pellet.X) + abs(p.Y-v.Pellet.Y)
		}
		if d < bestDist {
			best, bestDist = n, d
		}
	}
	if best == "" {
		return "up"
	}
	return best
}

// orbs: a voyager steps to a random neighbouring passable tile; a planet
// builds a voyager whenever the team can pay for one.
func orbs(raw json.RawMessage, rng *rand.Rand) any {
	var v struct {
		Me struct {
			Unit int `json:"unit"`
			R    int `json:"r"`
			C    int `json:"c"`
		} `json:"me"`
		N      int    `json:"n"`
		Orbs   int    `json:"orbs"`
		Cost   int    `json:"cost"`
		Map    []bool `json:"map"`
		Robots []struct {
			Visible bool `json:"visible"`
			R, C    int
		} `json:"robots"`
	}
	json.Unmarshal(raw, &v)
	taken := map[[2]int]bool{}
	for _, o := range v.Robots {
		if o.Visible {
			taken[[2]int{o.R, o.C}] = true
		}
	}
	free := func(r, c int) bool {
		return r >= 0 && c >= 0 && r < v.N && c < v.N && r*v.N+c < len(v.Map) && v.Map[r*v.N+c] && !taken[[2]int{r, c}]
	}
	var options [][2]int
	if v.Me.Unit == 1 {
		for _, d := range [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
			if free(v.Me.R+d[0], v.Me.C+d[1]) {
				options = append(options, d)
			}
		}
		if len(options) == 0 {
			return nil
		}
		return map[string]any{"move": options[rng.IntN(len(options))]}
	}
	if v.Orbs < v.Cost {
		return nil
	}
	for dr := -1; dr <= 1; dr++ {
		for dc := -1; dc <= 1; dc++ {
			if (dr != 0 || dc != 0) && free(v.Me.R+dr, v.Me.C+dc) {
				options = append(options, [2]int{dr, dc})
			}
		}
	}
	if len(options) == 0 {
		return nil
	}
	return map[string]any{"build": options[rng.IntN(len(options))], "signal": 1}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
