package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// runCommand plays one headless battle.
func runCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("run", &c)
	mapFile := fs.String("map", "", mapUsage)
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	record := fs.String("record", "", "write the battle's replay to this file (see 'squarebattle replay')")
	helpOn(fs, stdout, "usage: squarebattle run [flags] [PLAYER...]\n\nPlays one battle without the terminal UI and prints the standings.\nPLAYER is a class id or display name (any case); repeat one to field it twice.\nWith no PLAYER, every starting player plays.")
	game := fs.String("game", "", "play a rule mod: a folder of the scripts folder with a rules.lua (e.g. paint)")
	logFile := fs.String("log", "", logUsage)
	fs.Lookup("log").NoOptDefVal = "-"
	bf := addBotFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := outputPath("--record", *record); err != nil {
		return err
	}
	if *logFile != "-" {
		if err := outputPath("--log", *logFile); err != nil {
			return err
		}
	}
	cfg, rules, err := loadConfigOrGame(fs, &c, *game)
	if err != nil {
		return err
	}
	if rules != nil && rules.Info.Protocol != luabind.SquareBattleProtocol {
		if *mapFile != "" {
			return errMapMod
		}
		return withLog(*logFile, stderr, func(logw io.Writer) error {
			return runMod(fs, cfg, rules, *game, *asJSON, *record, stdout, logw, bf)
		})
	}
	cat, err := loadCatalog(cfg)
	if err != nil {
		return err
	}
	teams, err := pickTeams(cfg, cat, "", fs.Args(), bf)
	if err != nil {
		return err
	}
	o := engine.Options{
		Size:            cfg.Arena.Size,
		Wrap:            cfg.Arena.Wrap,
		Rounds:          cfg.Rules.Rounds,
		ReplicateRounds: cfg.Rules.ReplicateRounds,
		Seed:            battle.Seed(cfg),
		Workers:         battle.Workers(cfg),
	}
	if *mapFile != "" {
		m, err := readMapFlag(fs, cfg, *mapFile)
		if err != nil {
			return err
		}
		o.Map, o.MapFile, o.Size = m, *mapFile, m.Size
	}
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		return err
	}
	var res battle.Result
	err = withLog(*logFile, stderr, func(logw io.Writer) (err error) {
		res, err = battle.Play(battle.Setup{Config: cfg, Catalog: cat, Teams: teams, Game: rules, GameName: *game, Options: o,
			Seat: seat, RulesSeat: rs, Timing: battle.Timing(cfg, bf.noTimeout), Record: *record, Log: logw})
		return err
	})
	if err != nil {
		return err
	}
	snap, logs := res.Final, res.Logs
	if *asJSON {
		return writeJSON(stdout, snap, logs)
	}
	writeStandings(stdout, cfg, snap, logs)
	return nil
}

// pickPlayers resolves PLAYER arguments; none means every starting player.
func pickPlayers(cat *luabind.Catalog, names []string) ([]*luabind.Class, error) {
	return choosePlayers(names, cat.Players(), cat.Find, "no starting players found")
}

// choosePlayers looks each name up with find; no names means all, and an
// empty all is the error none.
func choosePlayers(names []string, all []*luabind.Class, find func(string) (*luabind.Class, error), none string) ([]*luabind.Class, error) {
	if len(names) == 0 {
		if len(all) == 0 {
			return nil, bad(errors.New(none))
		}
		return all, nil
	}
	var players []*luabind.Class
	for _, n := range names {
		p, err := find(n)
		if err != nil {
			return nil, bad(err)
		}
		players = append(players, p)
	}
	return players, nil
}

// errMapMod refuses --map for a rule mod with its own protocol.
var errMapMod = bad(errors.New("--map does not work with rule mods yet"))

// mapUsage is the help of --map on run and play.
const mapUsage = "start from this arena (the seed's notation: rows top first, -1 empty, k = team k)"

// maxMapBytes bounds a --map file: a 2000×2000 arena of "-1 " cells,
// with room for comments.
const maxMapBytes = 32 << 20

// readMapFlag reads the file of --map; --size, when given, must agree with
// its size.
func readMapFlag(fs *pflag.FlagSet, cfg config.Config, file string) (*engine.Map, error) {
	data, err := readInput(file, maxMapBytes, "the largest arena's map")
	if err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	m, err := engine.ParseMap(file, data)
	if err != nil {
		return nil, bad(err)
	}
	if fs.Changed("size") && cfg.Arena.Size != m.Size {
		return nil, bad(fmt.Errorf("--size %d disagrees with the %d×%d map %s", cfg.Arena.Size, m.Size, m.Size, file))
	}
	return m, nil
}

// battleJSON is the contract of `run --json`.
type battleJSON struct {
	Seed       uint64     `json:"seed"`
	Rounds     int        `json:"rounds"`
	Size       int        `json:"size"`
	Winner     *string    `json:"winner"`
	WinnerTeam *int       `json:"winner_team"`
	Teams      []teamJSON `json:"teams"`
	Board      [][]int    `json:"board"`
	// Problems are the first problem of each team and class, as the
	// standings table lists them, with their tracebacks.
	Problems []problemJSON `json:"problems"`
}

type problemJSON struct {
	Round   int    `json:"round"`
	Team    int    `json:"team"`
	Square  int    `json:"square"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Trace   string `json:"trace,omitempty"`
}

// jsonLogLines is how many of a team's last printed lines run --json gives.
const jsonLogLines = 20

// teamJSON is a team's line of run --json: its number, then its
// statistics with the fields a bot reads them under, then its log.
type teamJSON struct {
	Team      int `json:"team"`
	bot.Stats     // flattened by encoding/json: player, squares, births, ...
	// Log is the last lines the team's scripts printed (a bot's: wrote
	// to standard error).
	Log []string `json:"log"`
	// Retired, when the engine stopped asking the team: when and why.
	Retired *retiredJSON `json:"retired,omitempty"`
}

// logJSON is team's last jsonLogLines lines of logs, made safe; never nil.
func logJSON(logs [][]string, team int) []string {
	log := []string{}
	if team < len(logs) {
		l := logs[team]
		for _, line := range l[max(0, len(l)-jsonLogLines):] {
			log = append(log, engine.SafeLine(line))
		}
	}
	return log
}

// problemsJSON are s's first problems for --json; never nil.
func problemsJSON(s *engine.Snapshot) []problemJSON {
	out := []problemJSON{}
	for _, p := range s.FirstProblems {
		out = append(out, problemJSON{Round: p.Round, Team: p.Team, Square: int(p.Square),
			Kind: p.Kind.String(), Message: safe(p.Message), Trace: p.Trace})
	}
	return out
}

func writeJSON(w io.Writer, s *engine.Snapshot, logs [][]string) error {
	out := battleJSON{Seed: s.Seed, Rounds: s.Round, Size: s.Size, Board: s.Board()}
	if s.Winner >= 0 {
		name, team := safe(s.Teams[s.Winner].Player.Name), s.Winner
		out.Winner, out.WinnerTeam = &name, &team
	}
	for _, t := range s.Teams {
		out.Teams = append(out.Teams, teamJSON{Team: t.Team, Stats: bot.StatsFor(safe(t.Player.Name), t.Stats), Log: logJSON(logs, t.Team), Retired: retiredOf(t)})
	}
	out.Problems = problemsJSON(s)
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// writeWinner prints the winner, with what won it, and the victory speech;
// or that the battle was a tie.
func writeWinner(w io.Writer, s *engine.Snapshot, score func(engine.TeamView) string) {
	if s.Winner >= 0 {
		t := s.Teams[s.Winner]
		fmt.Fprintf(w, "Winner: team %d, %s, with %s.\n", t.Team, safe(t.Player.Name), score(t))
		if t.Player.Victory != "" {
			fmt.Fprintf(w, "  \"%s\"\n", safe(t.Player.Victory))
		}
	} else {
		fmt.Fprintln(w, "No winner: a tie.")
	}
	fmt.Fprintln(w)
}

// writeStandings prints how the battle ended, each team's statistics,
// the teams retired (logs are the teams' logs, for a retired bot's last
// lines) and the first problem of each kind.
func writeStandings(w io.Writer, cfg config.Config, s *engine.Snapshot, logs [][]string) {
	fmt.Fprintf(w, "SquareBattle: %d×%d arena, seed %d, %s played (limit %d)\n\n", s.Size, s.Size, s.Seed, plural(s.Round, "round"), s.Rounds)
	writeWinner(w, s, func(t engine.TeamView) string { return plural(t.Stats.Squares, "square") })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "team\tplayer\tsquares\tbirths\tkills\tdeaths\tcollisions\ttimeouts\terrors\t")
	for _, t := range s.Teams {
		st := t.Stats
		name := safe(t.Player.Name)
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t\n", t.Team, name, st.Squares, st.Births, st.Kills, st.Deaths, st.Collisions, st.Timeouts, st.Errors)
	}
	tw.Flush()
	for _, t := range s.Teams {
		if t.Eliminated > 0 && t.Player.Defeat != "" {
			fmt.Fprintf(w, "team %d %s, out in round %d: \"%s\"\n", t.Team, safe(t.Player.Name), t.Eliminated, safe(t.Player.Defeat))
		}
	}
	writeRetired(w, s, logs)
	if len(s.FirstProblems) > 0 {
		fmt.Fprintln(w, "\nScript problems (the first of each kind, team and class):")
		for _, p := range s.FirstProblems {
			who := "team " + fmt.Sprint(p.Team)
			if p.Team >= 0 && p.Team < len(s.Teams) {
				who += " " + safe(s.Teams[p.Team].Player.Name)
			}
			fmt.Fprintf(w, "  round %d, %s, %s: %s\n", p.Round, who, p.Kind, safe(strings.TrimSpace(p.Message)))
		}
	}
}
