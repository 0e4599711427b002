package tui

import (
	"fmt"
	"strconv"
	"time"
)

// The lobby's settings: the rows it shows (the game, the board, the limits,
// the seed, the speed), how keys change them, and the battle they and the
// teams describe. Apart from lobby.go, which keeps the lobby's state, its
// teams and its drawing.

// Settings rows. setGame shows only when the source offers rule mods.
const (
	setGame = iota - 1
	setSize
	setRounds
	setTime
	setSeed
	setSpeed
	setCount
)

// sizeAsk is what a game's rules choose a board size from.
type sizeAsk struct {
	game  int
	seed  uint64
	teams int
}

// chosenSize is the side the lobby's game's rules choose for the seed and
// the teams picked (at least one), 0 when they choose none.
func (l *lobby) chosenSize() (int, error) {
	if l.game >= len(l.games) || l.games[l.game].SeedSize == nil {
		return 0, nil
	}
	ask := sizeAsk{l.game, l.seed, max(len(l.teams), 1)}
	if ask != l.sized || (l.sizedSide == 0 && l.sizedErr == nil) {
		l.sized = ask
		l.sizedSide, l.sizedErr = l.games[l.game].SeedSize(ask.seed, ask.teams)
	}
	return l.sizedSide, l.sizedErr
}

// seedSize is the Board size setting's forms when the rules choose it.
func (l *lobby) seedSize() []string {
	n, err := l.chosenSize()
	if err != nil || n == 0 {
		return []string{"from the seed", "seed's"}
	}
	return []string{fmt.Sprintf("%d × %d (from the seed)", n, n), fmt.Sprintf("%d × %d", n, n)}
}

// settingRows are the settings shown, in order: the game first when there
// is a choice.
func (l *lobby) settingRows() []int {
	rows := []int{setSize, setRounds, setTime, setSeed, setSpeed}
	if len(l.games) > 1 {
		rows = append([]int{setGame}, rows...)
	}
	return rows
}

// setting is the setting under the cursor.
func (l *lobby) setting() int {
	rows := l.settingRows()
	return rows[min(l.cursor[areaSettings], len(rows)-1)]
}

// gameID is the game the lobby sets up: "" for SquareBattle.
func (l *lobby) gameID() string {
	if l.game < len(l.games) {
		return l.games[l.game].ID
	}
	return ""
}

// adjust changes the current setting one step (the game is the App's).
func (l *lobby) adjust(dir int) {
	s := &l.set
	switch l.setting() {
	case setSize:
		if s.Size == 0 { // the rules' choice: change from what they chose
			n, _ := l.chosenSize()
			s.Size = max(n, 4)
		}
		s.Size = min(max(s.Size+4*dir, 4), 2000)
	case setRounds:
		step := 100
		if s.Rounds+step*dir < 100 || s.Rounds < 100 {
			step = 10
		}
		s.Rounds = min(max(s.Rounds+step*dir, 10), 10_000_000)
	case setTime:
		s.TimeLimit = min(max(s.TimeLimit+time.Duration(dir)*10*time.Second, 0), 7*24*time.Hour)
	case setSeed:
		if l.seed+uint64(dir) > 0 {
			l.seed += uint64(dir)
		}
		l.random = false
	case setSpeed:
		s.Speed = nextSpeed(s.Speed, dir)
	}
}

// typeDigit edits the current setting by typing: digits replace its value.
func (l *lobby) typeDigit(ch rune, del bool) {
	if del {
		if l.editing != "" {
			l.editing = l.editing[:len(l.editing)-1]
		}
	} else if len(l.editing) < 15 {
		l.editing += string(ch)
	}
	n, _ := strconv.ParseUint(l.editing, 10, 64)
	s := &l.set
	switch l.setting() {
	case setSize:
		s.Size = int(min(n, 2000))
	case setRounds:
		s.Rounds = int(min(n, 10_000_000))
	case setTime:
		s.TimeLimit = time.Duration(min(n, 7*24*3600)) * time.Second
	case setSeed:
		l.seed, l.random = n, false
	case setSpeed:
		s.Speed = int(min(n, 100000))
	}
}

// setup is the battle the lobby describes, or a message saying what is
// missing.
func (l *lobby) setup() (Setup, string) {
	if len(l.teams) == 0 {
		return Setup{}, "pick at least one team first (Enter on a player)"
	}
	seeded := l.set.Size == 0 && l.game < len(l.games) && l.games[l.game].SeedSize != nil
	if l.set.Size < 2 && !seeded {
		return Setup{}, "the board must be at least 2×2"
	}
	if !seeded && l.set.Size*l.set.Size < len(l.teams) {
		return Setup{}, fmt.Sprintf("a %d×%d board has no room for %d teams", l.set.Size, l.set.Size, len(l.teams))
	}
	if l.set.Rounds < 1 {
		return Setup{}, "the round limit must be at least 1"
	}
	if l.seed == 0 {
		return Setup{}, "the seed must not be 0 (n draws a new one)"
	}
	su := Setup{Game: l.gameID(), Size: l.set.Size, Rounds: l.set.Rounds, Seed: l.seed}
	humans := 0
	for _, t := range l.teams {
		su.Players = append(su.Players, t.id)
		if t.id == HumanPlayer {
			humans++
		}
	}
	if humans > 1 {
		return Setup{}, "one Human a battle: one keyboard plays one team"
	}
	return su, ""
}

// settingText is a setting's name and its value's forms, longest first:
// a narrow terminal shows the longest that fits.
func (l *lobby) settingText(i int) (string, []string) {
	s := l.set
	switch i {
	case setGame:
		return "Game", []string{l.games[l.game].Name}
	case setSize:
		if s.Size == 0 {
			return "Board size", l.seedSize()
		}
		return "Board size", []string{fmt.Sprintf("%d × %d", s.Size, s.Size)}
	case setRounds:
		return "Round limit", []string{strconv.Itoa(s.Rounds)}
	case setTime:
		if s.TimeLimit == 0 {
			return "Time limit", []string{"0 s (none)", "none"}
		}
		return "Time limit", []string{fmt.Sprintf("%d s", int(s.TimeLimit/time.Second))}
	case setSeed:
		v := strconv.FormatUint(l.seed, 10)
		if l.random {
			return "Seed", []string{v + " (random)", v}
		}
		return "Seed", []string{v}
	}
	return "Speed", []string{speedLabel(s.Speed)}
}
