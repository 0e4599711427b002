package ssh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"time"

	gssh "github.com/gliderlabs/ssh"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/names"
	"github.com/squarebattle/squarebattle/tui"
)

// The ladder's exec commands: `ladder [--game G] [--json]` prints a
// game's table, `history PLAYER [--game G] [--json]` a player's page
// (versions, rating changes, recent battles with the replay IDs that get
// and replay take). Text is for people: names made visible and cut,
// columns aligned. JSON is for scripts: one object, names as they are
// (JSON escapes what needs escaping). An unknown game or player is one
// line on stderr and exit status 2.

// ladder is the server's ladder (Options.Ladder, else the hall's); nil
// without one.
func (s *Server) ladder() tui.Ladder {
	if s.o.Ladder != nil {
		return s.o.Ladder
	}
	if s.o.Hall != nil {
		return s.o.Hall.Ladder()
	}
	return nil
}

// historyLimit is how many battles and rating changes history shows.
const historyLimit = 100

// ladderTimeout bounds one command's reads of the ladder.
const ladderTimeout = 10 * time.Second

// ladderArgs reads a ladder command's arguments in any order: at most
// one PLAYER (when player is wanted), --game G or --game=G, --json.
func ladderArgs(args []string, wantPlayer bool) (player, game string, asJSON bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--json" || a == "-json":
			asJSON = true
		case a == "--game" || a == "-game" || a == "-g":
			if i+1 == len(args) {
				return "", "", false, errors.New("--game needs a game")
			}
			i++
			game = args[i]
		case strings.HasPrefix(a, "--game="):
			game = strings.TrimPrefix(a, "--game=")
		case strings.HasPrefix(a, "-"):
			return "", "", false, fmt.Errorf("unknown option %s", quote(a))
		case wantPlayer && player == "":
			player = a
		default:
			return "", "", false, fmt.Errorf("unexpected %s", quote(a))
		}
	}
	if wantPlayer && player == "" {
		return "", "", false, errors.New("which player?")
	}
	return player, game, asJSON, nil
}

// findGame is the ladder's game named name: its folder name, its title
// (any case), or SquareBattle for "" and "squarebattle".
func findGame(l tui.Ladder, name string) (tui.LadderGame, error) {
	games := l.Games()
	var known []string
	for _, g := range games {
		switch {
		case g.Name == name, strings.EqualFold(gameTitle(g), name), g.Name == "" && strings.EqualFold(name, "squarebattle"):
			return g, nil
		}
		known = append(known, strings.ToLower(gameTitle(g)))
	}
	return tui.LadderGame{}, fmt.Errorf("no game %s on the ladder (it has %s)", quote(name), strings.Join(known, ", "))
}

// gameTitle names a ladder game.
func gameTitle(g tui.LadderGame) string {
	switch {
	case g.Title != "":
		return g.Title
	case g.Name == "":
		return "SquareBattle"
	}
	return g.Name
}

// ladderFail says why a ladder command cannot answer, in one line on
// stderr: status 2 for what the asker got wrong (an unknown game or
// player, bad arguments, no ladder here), 1 for the server's trouble.
func ladderFail(sess gssh.Session, err error) (int, string) {
	msg := oneLineErr(err)
	fmt.Fprintf(sess.Stderr(), "squarebattle: %s\n", msg)
	if errors.As(err, new(inputError)) || errors.Is(err, ladder.ErrNotFound) || errors.Is(err, ladder.ErrAmbiguous) || errors.Is(err, ladder.ErrUnknownGame) {
		return exitBadInput, msg
	}
	return exitFailure, msg
}

// inputError is what a ladder command's asker got wrong.
type inputError struct{ error }

// oneLineErr is an error as one safe line.
func oneLineErr(err error) string {
	return engine.SafeText(names.Visible(strings.ReplaceAll(err.Error(), "\n", " "), 400))
}

// ladderSetup reads a ladder command's arguments and finds its game.
func (s *Server) ladderSetup(args []string, wantPlayer bool) (l tui.Ladder, g tui.LadderGame, player string, asJSON bool, err error) {
	if l = s.ladder(); l == nil {
		return nil, g, "", false, inputError{errors.New("this server runs no ladder")}
	}
	player, game, asJSON, err := ladderArgs(args, wantPlayer)
	if err != nil {
		usage := "ladder [--game G] [--json]"
		if wantPlayer {
			usage = "history PLAYER [--game G] [--json]"
		}
		return nil, g, "", false, inputError{fmt.Errorf("%v; usage: %s", err, usage)}
	}
	if g, err = findGame(l, game); err != nil {
		return nil, g, "", false, inputError{err}
	}
	return l, g, player, asJSON, nil
}

// ladderRow is one line of the table, as JSON.
type ladderRow struct {
	Rank       int       `json:"rank"`
	Ref        string    `json:"player"` // what history takes: name, or user/name
	Name       string    `json:"name"`   // the ladder's name
	Display    string    `json:"display"`
	Owner      string    `json:"owner,omitempty"`
	Rating     float64   `json:"rating"` // μ − 3σ
	Plus       float64   `json:"plus_minus"`
	Mu         float64   `json:"mu"`
	Sigma      float64   `json:"sigma"`
	Battles    int       `json:"battles"`
	Wins       int       `json:"wins"`
	SinceVer   int       `json:"battles_of_version"`
	Probation  bool      `json:"probation,omitempty"`
	Problem    string    `json:"problem,omitempty"`
	Retired    bool      `json:"retired,omitempty"`
	LastBattle time.Time `json:"last_battle,omitzero"`
}

func rowOf(s ladder.Standing) ladderRow {
	return ladderRow{Rank: s.Rank, Ref: s.Ref(), Name: s.Name, Display: s.Display, Owner: s.Owner, Rating: round2(s.Ordinal()),
		Plus: round2(3 * s.Rating.Sigma), Mu: s.Rating.Mu, Sigma: s.Rating.Sigma, Battles: s.Battles, Wins: s.Wins, SinceVer: s.SinceVersion,
		Probation: s.Probation, Problem: s.Problem, Retired: s.Retired, LastBattle: s.LastBattle}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// ladderTable is `ladder [--game G] [--json]`.
func (s *Server) ladderTable(ctx context.Context, sess gssh.Session, _ identity, args []string, _ *slog.Logger) (int, string) {
	l, g, _, asJSON, err := s.ladderSetup(args, false)
	if err != nil {
		return ladderFail(sess, err)
	}
	ctx, cancel := context.WithTimeout(ctx, ladderTimeout)
	defer cancel()
	board, total, err := l.Leaderboard(ctx, g.Name, 0, 0)
	if err != nil {
		return ladderFail(sess, err)
	}
	out := s.ladderWriter(sess)
	if asJSON {
		rows := make([]ladderRow, 0, len(board))
		for _, st := range board {
			rows = append(rows, rowOf(st))
		}
		return writeJSON(sess, out, struct {
			Game    string      `json:"game"`
			Title   string      `json:"title"`
			Players int         `json:"players"`
			Rating  string      `json:"rating"`
			Rows    []ladderRow `json:"rows"`
		}{g.Name, gameTitle(g), total, "mu - 3 sigma; plus_minus is 3 sigma", rows})
	}
	if len(board) == 0 {
		fmt.Fprintf(sess.Stderr(), "nobody is on the ladder of %s yet\n", engine.SafeText(gameTitle(g)))
		return exitOK, ""
	}
	rows := [][]string{{"#", "player", "name", "owner", "rating", "+-3sigma", "battles", "won", ""}}
	for _, st := range board {
		owner, prob := st.Owner, ""
		if owner == "" {
			owner = "-"
		}
		if st.Probation {
			prob = "probation"
		}
		rows = append(rows, []string{strconv.Itoa(st.Rank), cut(st.Display, 32), cut(st.Ref(), 40), cut(owner, 24),
			fmt.Sprintf("%.1f", st.Ordinal()), fmt.Sprintf("%.1f", 3*st.Rating.Sigma), strconv.Itoa(st.Battles), winShare(st.Player), prob})
	}
	writeLines(out, columns(rows, map[int]bool{0: true, 4: true, 5: true, 6: true, 7: true})...)
	return exitOK, ""
}

// cut is a name from someone else as a line of text shows it: every
// invisible character visible, at most n bytes.
func cut(s string, n int) string { return names.Visible(s, n) }

// winShare is the share of battles won, "-" before the first.
func winShare(p ladder.Player) string {
	if p.Battles == 0 {
		return "-"
	}
	return strconv.Itoa(int(math.Round(100*float64(p.Wins)/float64(p.Battles)))) + "%"
}

// ladderWriter is the session's stdout, dropped if the client stops
// reading.
func (s *Server) ladderWriter(sess gssh.Session) io.Writer {
	return deadlineWriter{w: sess, d: s.o.Limits.Write, drop: func() { closeConn(sess) }}
}

// writeJSON writes v as one JSON object and a newline.
func writeJSON(sess gssh.Session, w io.Writer, v any) (int, string) {
	data, err := json.Marshal(v)
	if err != nil {
		return ladderFail(sess, err)
	}
	w.Write(append(data, '\n'))
	return exitOK, ""
}
