package tui

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// press sends a key sequence: Enter as \r, Tab as \t, any other rune as
// itself (j and k move the lobby's cursor).
func press(s *session, seq string) {
	for _, r := range seq {
		switch r {
		case '\r':
			s.key(tcell.KeyEnter)
		case '\t':
			s.key(tcell.KeyTab)
		default:
			s.keys(string(r))
		}
	}
}

var (
	playerCursorRe = regexp.MustCompile(`(?m)^> (.+?)  `)
	teamCursorRe   = regexp.MustCompile(`│> +(\d+) +\S+ (.+?)  \(`)
	teamRowRe      = regexp.MustCompile(`│[ >] +(\d+) +\S+ `)
)

// lobbyCursor reads the lobby's cursor off its screen: the player under
// it in the player list, its row on the screen, or the team ("3 Borg")
// in the team list; "" where it is not.
func lobbyCursor(text string) (player string, row int, team string) {
	row = -1
	for i, line := range strings.Split(text, "\n") {
		if m := playerCursorRe.FindStringSubmatch(line); m != nil {
			player, row = m[1], i
		}
		if m := teamCursorRe.FindStringSubmatch(line); m != nil {
			team = m[1] + " " + m[2]
		}
	}
	return player, row, team
}

// firstTeam is the number of the first team the team list shows, 0 none.
func firstTeam(text string) string {
	if m := teamRowRe.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// TestLobbyAddKeepsCursor: Enter on a player adds its team at the end of
// the team list; the player list's cursor stays on the player acted on,
// and the team list's moves to the new team: the list scrolls to show it
// and Tab lands on it. Moving up the team list then scrolls it no more
// than it must.
func TestLobbyAddKeepsCursor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		keys   string // before Tab
		player string // under the player list's cursor
		team   string // under the team list's cursor after Tab
		after  string // keys after Tab
		first  string // the first team shown in the end
	}{
		{"the first player", "\r", "Borg", "1 Borg", "", "1"},
		{"a player in the middle", "jjjj\r", "Line Dancer", "1 Line Dancer", "", "1"},
		{"the last player", "jjjjjjjjj\r", "Wanderer", "1 Wanderer", "", "1"},
		{"a second team", "\rjj\r", "Explorer", "2 Explorer", "", "1"},
		{"the same player twice", "jj\r\r", "Explorer", "2 Explorer", "", "1"},
		{"a team past the list's end", strings.Repeat("\r", 11) + "j\r", "Expand", "12 Expand", "", "3"},
		{"up the scrolled list", strings.Repeat("\r", 11) + "j\r", "Expand", "9 Borg", "kkk", "3"},
		{"up past its top", strings.Repeat("\r", 11) + "j\r", "Expand", "2 Borg", "kkkkkkkkkk", "2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, 80, 24, "", Options{})
			s.waitText("Start Battle")
			press(s, tc.keys)
			teams := strings.Count(tc.keys, "\r")
			s.waitFor("the teams added and the player cursor", func(text string) bool {
				player, _, _ := lobbyCursor(text)
				return player == tc.player && (strings.Contains(text, itoa(teams)+" teams in all") ||
					teams <= 10 && strings.Contains(text, "│  "+pad(teams)+" "))
			})
			press(s, "\t"+tc.after)
			text := s.waitFor("the team cursor", func(text string) bool {
				_, _, team := lobbyCursor(text)
				return team == tc.team
			})
			if got := firstTeam(text); got != tc.first {
				t.Errorf("the team list starts at team %s, want %s:\n%s", got, tc.first, text)
			}
		})
	}
}

func itoa(n int) string { return strings.TrimSpace(pad(n)) }

// pad is n as the team list numbers teams, right-aligned in two columns.
func pad(n int) string {
	d := []byte{' ', byte('0' + n%10)}
	if n >= 10 {
		d[0] = byte('0' + n/10)
	}
	return string(d)
}

// changingSource is the shipped players and others put in the folder or
// taken out since, listed as a folder is: by file name.
type changingSource struct {
	*scriptSource
	mu    sync.Mutex
	extra []string // ids, each a starting player named after it
}

func (c *changingSource) set(ids ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.extra = ids
}

func (c *changingSource) Entries() []Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.scriptSource.Entries()
	for _, id := range c.extra {
		out = append(out, Entry{ID: id, Name: "New " + id, File: id + ".lua"})
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// TestLobbyReloadKeepsCursor: a player file put in the folder (or taken
// out) while the lobby is open lists it at its place, above, below or
// at the cursor's player, and the cursor stays on that player; on a list
// scrolled down past what changed, on the same row of the screen.
func TestLobbyReloadKeepsCursor(t *testing.T) {
	t.Parallel() // a session of its own, mostly waiting on the battle's pace and frames

	for _, tc := range []struct {
		name          string
		h             int
		before, after []string // the extra players
		keys          string
		player        string
		moved         int // rows the cursor's player moves down the screen
	}{
		{"added at the start", 24, nil, []string{"aardvark"}, "jjjj", "Line Dancer", 1},
		{"added above", 24, nil, []string{"hunter2"}, "jjjj", "Line Dancer", 1},
		{"added just below", 24, nil, []string{"linedancer2"}, "jjjj", "Line Dancer", 0},
		{"added at the end", 24, nil, []string{"zebra"}, "jjjj", "Line Dancer", 0},
		{"several added", 24, nil, []string{"aardvark", "hunter2", "zebra"}, "jjjj", "Line Dancer", 2},
		{"taken out above", 24, []string{"aardvark"}, nil, "jjjjj", "Line Dancer", -1},
		{"at the start, added at the start", 24, nil, []string{"aardvark"}, "", "Borg", 1},
		{"at the end, added at the end", 24, nil, []string{"zebra"}, "jjjjjjjjj", "Wanderer", 0},
		{"scrolled, added above the top", 12, nil, []string{"aardvark"}, "jjjjjjjjj", "Wanderer", 0},
		{"scrolled, two added above the top", 12, nil, []string{"aardvark", "bee"}, "jjjjjjjjj", "Wanderer", 0},
		{"scrolled, taken out above the top", 12, []string{"aardvark"}, nil, "jjjjjjjjjj", "Wanderer", 0},
		{"scrolled, added below the top", 12, nil, []string{"starter2"}, "jjjjjjjjj", "Wanderer", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &changingSource{scriptSource: newScriptSource(t)}
			src.set(tc.before...)
			s := open(t, 80, tc.h, "", Options{Source: src})
			s.waitText("pick your teams")
			press(s, tc.keys)
			text := s.waitFor("the cursor on "+tc.player, func(text string) bool {
				player, _, _ := lobbyCursor(text)
				return player == tc.player
			})
			_, row, _ := lobbyCursor(text)
			src.set(tc.after...)
			s.app.Reload()
			// What changed may be off the screen: help opened and
			// closed after the reload shows the lobby as it is after it.
			s.keys("?")
			s.waitText("next area")
			s.keys("x")
			text = s.waitFor("the lobby back", func(text string) bool { return !strings.Contains(text, "next area") })
			if player, at, _ := lobbyCursor(text); player != tc.player || at != row+tc.moved {
				t.Errorf("the cursor is on %q at row %d, want %q at row %d:\n%s", player, at, tc.player, row+tc.moved, text)
			}
			// up at the top, the list is the folder's
			press(s, strings.Repeat("k", 14))
			s.waitFor("the new list at the top", func(text string) bool {
				if player, _, _ := lobbyCursor(text); player != "Borg" && player != "New aardvark" {
					return false
				}
				return slices.Contains(tc.after, "aardvark") == strings.Contains(text, "aardvark.lua")
			})
		})
	}
}

// TestLobbyReloadKeepsTeamCursor: a player taken out of the folder takes
// its teams with it; the team list's cursor stays on its team, or, when
// that went, on the team after it.
func TestLobbyReloadKeepsTeamCursor(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys string // in the team list, from its last team
		team string
	}{
		{"a team above went", "", "2 Explorer"},
		{"the team under it went", "k", "2 Explorer"},
		{"the team below it went", "kk", "1 Borg"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := &changingSource{scriptSource: newScriptSource(t)}
			src.set("aardvark")
			s := open(t, 80, 24, "", Options{Source: src})
			s.waitText("Start Battle")
			// teams: Borg, New aardvark, Explorer
			press(s, "j\rk\rjjj\r\t"+tc.keys)
			s.waitFor("three teams", func(text string) bool { return strings.Contains(text, "  3  ") })
			src.set()
			s.app.Reload()
			s.waitFor("the team cursor on "+tc.team, func(text string) bool {
				_, _, team := lobbyCursor(text)
				return team == tc.team && !strings.Contains(text, "aardvark.lua")
			})
		})
	}
}
