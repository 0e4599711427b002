package ssh

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"time"

	gssh "github.com/gliderlabs/ssh"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/tui"
)

// history is `history PLAYER [--game G] [--json]`: a player's page on
// the ladder — who, rating, probation, versions, rating changes and
// recent battles with their replay IDs (ladder.go says how it answers).
func (s *Server) history(ctx context.Context, sess gssh.Session, _ identity, args []string, _ *slog.Logger) (int, string) {
	l, g, name, asJSON, err := s.ladderSetup(args, true)
	if err != nil {
		return ladderFail(sess, err)
	}
	ctx, cancel := context.WithTimeout(ctx, ladderTimeout)
	defer cancel()
	p, err := l.Find(ctx, g.Name, name)
	if err != nil {
		return ladderFail(sess, fmt.Errorf("%w (%s ladder lists them)", err, reach(sess.LocalAddr())))
	}
	pg, err := l.Page(ctx, p.ID, historyLimit)
	if err != nil {
		return ladderFail(sess, err)
	}
	var ids []ladder.PlayerID
	for _, b := range pg.Played {
		for _, seat := range b.Seats {
			ids = append(ids, seat.Player)
		}
	}
	others, err := l.Players(ctx, ids)
	if err != nil {
		return ladderFail(sess, err)
	}
	h := historyOf(l, g, pg, others)
	out := s.ladderWriter(sess)
	if asJSON {
		return writeJSON(sess, out, h)
	}
	h.write(out)
	return exitOK, ""
}

// historyJSON is a player's page as history --json writes it.
type historyJSON struct {
	Game     string        `json:"game"`
	Title    string        `json:"title"`
	Player   ladderRow     `json:"player"`
	Versions []versionJSON `json:"versions"` // newest first
	Changes  []changeJSON  `json:"changes"`  // newest first
	Battles  []battleJSON  `json:"battles"`  // newest first
	Limit    int           `json:"limit"`    // at most this many changes and battles
}

type versionJSON struct {
	Version int       `json:"version"` // 1 for the first
	Hash    string    `json:"hash"`
	Created time.Time `json:"created"`
	Current bool      `json:"current,omitempty"`
}

type changeJSON struct {
	Kind    string    `json:"kind"` // battle, version or reset
	Battle  int64     `json:"battle,omitempty"`
	Version int       `json:"version,omitempty"`
	At      time.Time `json:"at"`
	Before  float64   `json:"before"` // μ − 3σ
	After   float64   `json:"after"`
}

type battleJSON struct {
	Battle    int64          `json:"battle"`
	Finished  time.Time      `json:"finished"`
	Place     int            `json:"place"` // 1 the winner; equal places are ties
	Teams     int            `json:"teams"`
	Rated     bool           `json:"rated"` // false when its version was replaced meanwhile
	Before    float64        `json:"before"`
	After     float64        `json:"after"`
	Change    float64        `json:"change"`
	Replay    string         `json:"replay,omitempty"` // get and replay take it; absent when pruned
	Opponents []opponentJSON `json:"opponents"`
}

type opponentJSON struct {
	Player  string `json:"player"` // what history takes
	Display string `json:"display"`
	Place   int    `json:"place"`
}

// historyOf gathers a page as history shows it.
func historyOf(l tui.Ladder, g tui.LadderGame, pg ladder.Page, others map[ladder.PlayerID]ladder.Player) historyJSON {
	h := historyJSON{Game: g.Name, Title: gameTitle(g), Player: rowOf(pg.Standing), Limit: historyLimit,
		Versions: []versionJSON{}, Changes: []changeJSON{}, Battles: []battleJSON{}}
	number := map[ladder.VersionID]int{}
	for i, v := range pg.Versions {
		number[v.ID] = i + 1
	}
	for i := len(pg.Versions) - 1; i >= 0; i-- {
		v := pg.Versions[i]
		h.Versions = append(h.Versions, versionJSON{Version: i + 1, Hash: v.Hash, Created: v.Created, Current: v.ID == pg.Version})
	}
	for _, c := range pg.Changes {
		h.Changes = append(h.Changes, changeJSON{Kind: string(c.Kind), Battle: int64(c.Battle), Version: number[c.Version], At: c.At,
			Before: round2(c.Before.Ordinal()), After: round2(c.After.Ordinal())})
	}
	for _, b := range pg.Played {
		bj := battleJSON{Battle: int64(b.ID), Finished: b.Finished, Teams: len(b.Seats), Replay: l.ReplayID(b), Opponents: []opponentJSON{}}
		mine := -1
		for i, seat := range b.Seats {
			if seat.Player == pg.ID && mine < 0 {
				mine = i
				bj.Place, bj.Rated = seat.Place, seat.Rated
				bj.Before, bj.After = round2(seat.Before.Ordinal()), round2(seat.After.Ordinal())
				bj.Change = round2(seat.After.Ordinal() - seat.Before.Ordinal())
				continue
			}
			o := opponentJSON{Player: fmt.Sprintf("#%d", seat.Player), Place: seat.Place}
			if p, ok := others[seat.Player]; ok {
				o.Player, o.Display = p.Ref(), p.Display
			}
			bj.Opponents = append(bj.Opponents, o)
		}
		h.Battles = append(h.Battles, bj)
	}
	return h
}

// signed writes a change with its sign, 0.0 for what rounds to nothing
// (never -0.0).
func signed(d float64) string {
	if d > -0.05 && d < 0.05 {
		return "0.0"
	}
	return fmt.Sprintf("%+.1f", d)
}

// utc writes a time for people.
func utc(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// write writes the page as text.
func (h historyJSON) write(w io.Writer) {
	p := h.Player
	head := cut(p.Display, 64) + " (" + cut(p.Ref, 64) + "), " + cut(h.Title, 64)
	switch {
	case p.Retired:
		head += ": retired"
	case p.Rank > 0:
		head += ": rank " + strconv.Itoa(p.Rank)
	}
	lines := []string{head,
		fmt.Sprintf("rating %.1f +- %.1f (mu %.2f, sigma %.2f: rating = mu - 3 sigma); %d battles, %d won, %d of this version; last battle %s",
			p.Rating, p.Plus, p.Mu, p.Sigma, p.Battles, p.Wins, p.SinceVer, utc(p.LastBattle))}
	if p.Probation {
		l := "on probation: its own errors or timeouts spoiled most of its last battles, so it plays fewer"
		if p.Problem != "" {
			l += "; the first problem: " + cut(p.Problem, 300)
		}
		lines = append(lines, l)
	}
	lines = append(lines, "", "versions (newest first):")
	var rows [][]string
	for _, v := range h.Versions {
		now := ""
		if v.Current {
			now = "plays now"
		}
		rows = append(rows, []string{"  v" + strconv.Itoa(v.Version), utc(v.Created), cut(v.Hash, 64), now})
	}
	lines = append(lines, columns(rows, nil)...)
	lines = append(lines, "", fmt.Sprintf("rating changes (newest first, at most %d):", h.Limit))
	rows = [][]string{{"  at", "why", "before", "after", "change"}}
	for _, c := range h.Changes {
		why := c.Kind
		switch c.Kind {
		case string(ladder.ByBattle):
			why = "battle " + strconv.FormatInt(c.Battle, 10)
		case string(ladder.ByVersion):
			why = "version v" + strconv.Itoa(c.Version)
		}
		rows = append(rows, []string{"  " + utc(c.At), why, fmt.Sprintf("%.1f", c.Before), fmt.Sprintf("%.1f", c.After), signed(c.After - c.Before)})
	}
	lines = append(lines, columns(rows, map[int]bool{2: true, 3: true, 4: true})...)
	lines = append(lines, "", fmt.Sprintf("recent battles (newest first, at most %d; get ID downloads a replay, replay ID plays it):", h.Limit))
	rows = [][]string{{"  battle", "finished", "place", "change", "replay", "opponents"}}
	for _, b := range h.Battles {
		place := fmt.Sprintf("%d/%d", b.Place, b.Teams)
		for _, o := range b.Opponents {
			if o.Place == b.Place {
				place = "=" + place
				break
			}
		}
		change := signed(b.Change)
		if !b.Rated {
			change = "unrated"
		}
		replay := b.Replay
		if replay == "" {
			replay = "(pruned)"
		}
		var opp []string
		for _, o := range b.Opponents {
			opp = append(opp, cut(o.Player, 48))
		}
		rows = append(rows, []string{"  " + strconv.FormatInt(b.Battle, 10), utc(b.Finished), place, change, cut(replay, 64), strings.Join(opp, ", ")})
	}
	lines = append(lines, columns(rows, map[int]bool{0: true, 2: true, 3: true})...)
	writeLines(w, lines...)
}
