package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// TestLadderBoard: the menu's Ladder shows SquareBattle's table at 80×24
// — rank (! on probation), player, owner, rating μ−3σ, ± 3σ, battles,
// win %, trend and the change since the viewer's last visit — and Tab
// switches to snake's; without UTF-8, in ASCII.
func TestLadderBoard(t *testing.T) {
	f := arenaFixture(t)
	h := ladderHall(t, f, nil)
	for _, c := range []struct {
		name, charset, key, want string
	}{
		{"ladder-80x24", "", viewerKey, "since: your last visit"},
		{"ladder-ascii-80x24", "US-ASCII", "", "a key shows changes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := joinCharset(t, h, 80, 24, c.charset, SessionOptions{User: "alice", Key: c.key}, nil)
			s.menuTo("Ladder")
			text := s.waitText(c.want)
			golden(t, c.name, text)
			if c.charset != "" && strings.ContainsFunc(text, func(r rune) bool { return r > 127 }) {
				t.Errorf("not ASCII:\n%s", text)
			}
			s.key(tcell.KeyTab)
			text = s.waitText("Snake a")
			if strings.Contains(text, "Explorer") || !strings.Contains(text, "Viper") {
				t.Errorf("Tab did not switch to snake's table:\n%s", text)
			}
			s.key(tcell.KeyLeft)
			s.waitText("25 players")
		})
	}
}

// noBraille is a terminal whose character set has no braille (as CP437
// has half blocks and none): plots take half blocks.
type noBraille struct{ sizedScreen }

func (s noBraille) CanDisplay(r rune, fallbacks bool) bool {
	if r >= 0x2800 && r <= 0x28ff {
		return false
	}
	return s.sizedScreen.CanDisplay(r, fallbacks)
}

// openPlayer opens the page of the player of SquareBattle's table named
// ref, from the Ladder item.
func openPlayer(t *testing.T, s *session, f *ladderFixture, ref string) string {
	t.Helper()
	p := f.find(t, "", ref)
	pg, err := f.l.History(context.Background(), p.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.menuTo("Ladder")
	s.waitText("rating")
	s.keys(strings.Repeat("j", pg.Rank-1))
	s.waitFor("the cursor on "+ref, func(text string) bool { return cursorOn(text, pg.Rank) })
	s.key(tcell.KeyEnter)
	return s.waitText("recent battles")
}

// TestLadderPage: a player's page at 80×24 — who, rating, probation with
// its first problem, versions, the rating plot in braille cells, half
// blocks or ASCII as the terminal can show, and its recent battles.
func TestLadderPage(t *testing.T) {
	f := arenaFixture(t)
	h := ladderHall(t, f, nil)
	for _, c := range []struct {
		name, player, charset string
		wrap                  func(sizedScreen) tcell.Screen
		want                  func(string) bool
	}{
		{"ladder-page-80x24", "alice/hunter", "", nil, func(s string) bool { return strings.ContainsAny(s, "⡀⠁⠉⣀⠤") }},
		{"ladder-page-blocks-80x24", "alice/hunter", "", func(s sizedScreen) tcell.Screen { return noBraille{s} },
			func(s string) bool {
				return strings.ContainsAny(s, "▀▄█") && !strings.ContainsAny(s, "⡀⠁⠉⣀⠤")
			}},
		{"ladder-page-ascii-80x24", "alice/hunter", "US-ASCII", nil, func(s string) bool { return !strings.ContainsFunc(s, func(r rune) bool { return r > 127 }) }},
		{"ladder-probation-80x24", "dana/crash", "", nil, func(s string) bool { return strings.Contains(s, "attempt to call a nil value") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := joinCharset(t, h, 80, 24, c.charset, SessionOptions{User: "alice", Key: viewerKey}, c.wrap)
			text := openPlayer(t, s, f, c.player)
			if !c.want(text) {
				t.Errorf("the page is not drawn as it should be:\n%s", text)
			}
			golden(t, c.name, text)
			s.key(tcell.KeyEscape)
			s.waitText("since")
		})
	}
}

// hostileFixture has players whose names and owners are 10,000
// characters of controls, escapes, invisible and wide characters. The
// ladder refuses a name or owner that is not UTF-8 (engine/ladder's
// text.go), so only the display name has bytes that are not.
func hostileFixture(t *testing.T) *ladderFixture {
	long := strings.Repeat("A\x1b[2J\x1b]0;pwned\x07\n\r\t\u202e\u200b\xff", 10000/22+1)[:10000]
	utf8Long := strings.ToValidUTF8(long, "\u0085")
	ps := []fixturePlayer{
		{name: "explorer", display: "Explorer", strength: 3},
		{name: "long", display: long, strength: 5},
		{name: "evil." + utf8Long, owner: "evil\x1b[31m" + utf8Long, display: "Ex\u200bplorer", strength: 4},
		{name: "zalgo", display: "Z" + strings.Repeat("\u0301", 5000) + "algo", strength: 2},
		{name: "wide", display: strings.Repeat("忍者", 5000), owner: "忍" + strings.Repeat("\u200d", 100), strength: 1},
		{name: "rtl", display: "\u202eregrolpxE", strength: 0},
	}
	f := newFixture(t, ps)
	f.play(t, "", 20)
	return f
}

// TestLadderHostileNames: names of 10,000 characters with controls,
// escapes, bidi overrides, zero-width and wide characters and stacked
// marks keep the table's layout (every column where its heading is, no
// control character on the screen) and the player page's.
func TestLadderHostileNames(t *testing.T) {
	f := hostileFixture(t)
	h := ladderHall(t, f, nil)
	s := join(t, h, 80, 24, SessionOptions{User: "viewer"}, nil)
	s.menuTo("Ladder")
	text := s.waitText("rating")
	checkNoControls(t, text)
	golden(t, "ladder-hostile-80x24", text)
	// Every row's numbers end under their headings.
	for _, head := range []string{"rating", "played", "win%"} {
		x := column0(s.sim, 3, head) + len(head) - 1
		for y := 4; y < 4+6; y++ {
			cells, w, _ := s.sim.GetContents()
			c := cells[y*w+x]
			if len(c.Runes) == 0 || !(c.Runes[0] >= '0' && c.Runes[0] <= '9' || c.Runes[0] == '%' || c.Runes[0] == '-') {
				t.Errorf("row %d: %q under the end of %q, want a number's last character:\n%s", y, string(c.Runes), head, text)
			}
		}
	}
	for i := range 6 {
		if i > 0 {
			s.keys("j")
		}
		s.key(tcell.KeyEnter)
		page := s.waitText("recent battles")
		checkNoControls(t, page)
		for n, l := range strings.Split(page, "\n") {
			if uniseg.StringWidth(l) > 80 {
				t.Errorf("page line %d is %d columns wide: %q", n, uniseg.StringWidth(l), l)
			}
		}
		if i == 0 { // the 10,000 characters
			golden(t, "ladder-hostile-page-80x24", page)
		}
		s.key(tcell.KeyEscape)
		s.waitText("since")
	}
}

// cursorOn reports whether the table's cursor is on rank.
func cursorOn(text string, rank int) bool {
	return regexp.MustCompile(fmt.Sprintf(`(?m)^>\s+%d[ !]`, rank)).MatchString(text)
}

// checkNoControls fails when a screen holds a control character (other
// than its line breaks), a bidi override or a zero-width character.
func checkNoControls(t *testing.T, text string) {
	t.Helper()
	for _, r := range text {
		if r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' || r == '\u200b' || r == '\u200d' || r == 0xfffd) {
			t.Fatalf("the screen holds %U:\n%s", r, text)
		}
	}
}

// countingLadder counts what the screens ask of a ladder: the most
// lines, trends and earlier ratings asked at once.
type countingLadder struct {
	Ladder
	mu                      sync.Mutex
	boards, lines, ids, all int
}

func (c *countingLadder) Leaderboard(ctx context.Context, game string, offset, limit int) ([]ladder.Standing, int, error) {
	c.mu.Lock()
	c.boards++
	c.lines = max(c.lines, limit)
	if limit <= 0 {
		c.all++
	}
	c.mu.Unlock()
	return c.Ladder.Leaderboard(ctx, game, offset, limit)
}

func (c *countingLadder) Trends(ctx context.Context, ids []ladder.PlayerID, n int) (map[ladder.PlayerID][]float64, error) {
	c.mu.Lock()
	c.ids = max(c.ids, len(ids))
	c.mu.Unlock()
	return c.Ladder.Trends(ctx, ids, n)
}

func (c *countingLadder) RatingsAt(ctx context.Context, ids []ladder.PlayerID, seq int64) (map[ladder.PlayerID]float64, error) {
	c.mu.Lock()
	c.ids = max(c.ids, len(ids))
	c.mu.Unlock()
	return c.Ladder.RatingsAt(ctx, ids, seq)
}

// TestLadderThousand: a ladder of 1,000 players pages with PgDn, End,
// PgUp and Home, each step shown within a second, reading only the
// lines on screen (19 at 80×24) and their trends and earlier ratings.
func TestLadderThousand(t *testing.T) {
	var ps []fixturePlayer
	for i := range 1000 {
		owner := ""
		if i%3 > 0 {
			owner = fmt.Sprintf("user%03d", i%97)
		}
		ps = append(ps, fixturePlayer{name: fmt.Sprintf("p%04d", i), owner: owner, display: fmt.Sprintf("Player %d", i), strength: float64(i % 17)})
	}
	f := newFixture(t, ps)
	f.play(t, "", 150)
	if _, err := f.l.Visit(context.Background(), viewerKey); err != nil {
		t.Fatal(err)
	}
	f.play(t, "", 30)
	count := &countingLadder{Ladder: NewLadderView(f.l, LadderViewOptions{})}
	h := ladderHall(t, f, count)
	s := join(t, h, 80, 24, SessionOptions{User: "user001", Key: viewerKey}, nil)
	s.menuTo("Ladder")
	s.waitText("1000 players")
	var slowest time.Duration
	for _, step := range []struct {
		key  tcell.Key
		rank int // where the cursor lands
	}{
		{tcell.KeyPgDn, 20}, {tcell.KeyPgDn, 39}, {tcell.KeyDown, 40}, {tcell.KeyEnd, 1000},
		{tcell.KeyPgUp, 981}, {tcell.KeyUp, 980}, {tcell.KeyHome, 1},
	} {
		start := time.Now()
		s.key(step.key)
		text := s.waitFor(fmt.Sprintf("the cursor on %d", step.rank), func(text string) bool { return cursorOn(text, step.rank) })
		slowest = max(slowest, time.Since(start))
		if step.key == tcell.KeyEnd {
			golden(t, "ladder-1000-80x24", text)
		}
	}
	t.Logf("slowest step %v; %d tables read, at most %d lines and %d players' trends at once", slowest, count.boards, count.lines, count.ids)
	if slowest > time.Second {
		t.Errorf("a step took %v", slowest)
	}
	if count.lines > 19 || count.ids > 19 || count.all > 0 {
		t.Errorf("the screens read %d lines and %d players' trends at once, %d whole tables; want at most the 19 on screen", count.lines, count.ids, count.all)
	}
}

// TestLadderWatch: Enter (or w) on a battle of a player's page plays its
// replay through SessionOptions.OpenReplay, by the id Ladder.ReplayID
// gives; Esc comes back to the page. A battle whose replay was pruned
// says so.
func TestLadderWatch(t *testing.T) {
	f := arenaFixture(t)
	h := ladderHall(t, f, nil)
	file := recordBattle(t, newScriptSource(t), replaySetup)
	var mu sync.Mutex
	var asked []string
	open := func(id string) (*replay.Replay, error) {
		mu.Lock()
		asked = append(asked, id)
		mu.Unlock()
		return replay.Open(file)
	}
	s := join(t, h, 80, 24, SessionOptions{User: "alice", Key: viewerKey, OpenReplay: open}, nil)
	openPlayer(t, s, f, "alice/hunter")
	p := f.find(t, "", "alice/hunter")
	pg, err := f.l.History(context.Background(), p.ID, pageLimit)
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range []string{"\r", "w"} {
		if key == "\r" {
			s.key(tcell.KeyEnter)
		} else {
			s.keys(key)
		}
		s.waitText("REPLAY of 150 rounds")
		s.key(tcell.KeyEscape)
		s.waitText("recent battles")
		mu.Lock()
		if want := fmt.Sprintf("ladder-%d", pg.Played[0].ID); len(asked) != i+1 || asked[i] != want {
			t.Errorf("asked for replays %q, want %q", asked, want)
		}
		mu.Unlock()
	}
	pruned := -1
	for i, b := range pg.Played {
		if b.ID%5 == 0 {
			pruned = i
			break
		}
	}
	if pruned < 0 {
		t.Fatal("no battle with its replay pruned")
	}
	s.keys(strings.Repeat("j", pruned))
	s.waitText(fmt.Sprintf("battle %d: its replay is no longer kept", pg.Played[pruned].ID))
	s.key(tcell.KeyEnter)
	s.waitText(fmt.Sprintf("the replay of battle %d is no longer kept", pg.Played[pruned].ID))
}

// TestMyPlayers: My players lists the viewer's players of every game
// with their ranks; Enter opens a page and Esc comes back. Without
// players, or without a key, it says how to get some.
func TestMyPlayers(t *testing.T) {
	f := arenaFixture(t)
	h := ladderHall(t, f, nil)
	s := join(t, h, 80, 24, SessionOptions{User: "alice", Key: viewerKey}, nil)
	s.menuTo("My players on the ladder")
	text := s.waitText("4 players of yours")
	golden(t, "ladder-mine-80x24", text)
	for _, name := range []string{"Hunter Prime", "Spiral", "Turtle", "Viper"} {
		if !strings.Contains(text, name) {
			t.Errorf("My players does not list %s:\n%s", name, text)
		}
	}
	s.keys("jjj")
	s.key(tcell.KeyEnter)
	s.waitText("Viper (alice/viper) · snake")
	s.key(tcell.KeyEscape)
	s.waitText("4 players of yours")

	for _, c := range []struct {
		user, key, want string
	}{
		{"zed", "SHA256:zed", "None of your players is on the ladder yet"},
		{"", "", "Connect with an SSH key"},
	} {
		s := join(t, h, 80, 24, SessionOptions{User: c.user, Key: c.key}, nil)
		s.menuTo("My players on the ladder")
		s.waitText(c.want)
	}
}

// TestLadderVisits: the change since the last visit shows for a viewer
// with a key from their second visit on; a first visit says so, a viewer
// without a key, or whose key the server does not remember (no user
// name), is told what would show it and leaves no visit behind. Visits
// are the key's, in whatever session.
func TestLadderVisits(t *testing.T) {
	f := arenaFixture(t)
	h := ladderHall(t, f, nil)
	for _, c := range []struct {
		key, want string
		forgotten bool // SessionOptions.Remembered says no
		since     bool // the since column holds changes
	}{
		{"", "a key shows changes since your last visit", false, false},
		{"SHA256:newcomer", "first visit: changes show from the next one", false, false},
		{"SHA256:newcomer", "since: your last visit", false, true},
		{viewerKey, "since: your last visit", false, true},
		{"SHA256:nameless", "changes show once your key has a name", true, false},
		{"SHA256:nameless", "changes show once your key has a name", true, false},
		{"SHA256:nameless", "first visit: changes show from the next one", false, false},
	} {
		so := SessionOptions{User: "bob", Key: c.key}
		if c.forgotten {
			so.Remembered = func() bool { return false }
		}
		s := join(t, h, 80, 24, so, nil)
		s.menuTo("Ladder")
		text := s.waitText(c.want)
		rows := regexp.MustCompile(`(?m)(\+\d+\.\d|-\d+\.\d|0\.0|new)$`).FindAllString(text, -1)
		if got := len(rows) > 0; got != c.since {
			t.Errorf("key %q: changes shown %v, want %v:\n%s", c.key, got, c.since, text)
		}
		s.quit()
	}
}

// TestLadderFromSession: a session's own SessionOptions.Ladder shows in
// the menu of a hall that has none (tui/ssh passes its Options.Ladder so);
// a session of the same hall without one has no Ladder item.
func TestLadderFromSession(t *testing.T) {
	f := arenaFixture(t)
	h := newHall(t, HallOptions{Settings: Settings{Size: 16, Rounds: 40, Speed: 0, FPS: 30}, Featured: FeaturedOptions{Linger: time.Hour}})
	s := join(t, h, 80, 24, SessionOptions{User: "alice", Ladder: NewLadderView(f.l, LadderViewOptions{})}, nil)
	s.menuTo("Ladder")
	s.waitText("25 players")
	plain := join(t, h, 80, 24, SessionOptions{User: "bob"}, nil)
	if text := plain.waitText("> Watch the featured battle"); strings.Contains(text, "Ladder") {
		t.Errorf("a session without a ladder offers one:\n%s", text)
	}
}
