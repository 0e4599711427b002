package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// runMod plays one headless battle of a rule mod (run --game NAME).
// With record set, the battle's replay is written to that file.
// logw, when not nil, gets what the teams print as they print it (run --log).
//
// bf names the bots that play (--bot, or .bot files of the game's folder
// among the players).
func runMod(flags *pflag.FlagSet, cfg config.Config, g *luabind.Game, name string, asJSON bool, record string, stdout, logw io.Writer, bf *botFlags) error {
	teams, err := pickTeams(cfg, g.Catalog, name, flags.Args(), bf)
	if err != nil {
		return err
	}
	o := modOptions(flags, cfg, g)
	o.Seed, o.Workers = battle.Seed(cfg), battle.Workers(cfg)
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		return err
	}
	res, err := battle.PlayMod(battle.Setup{Config: cfg, Catalog: g.Catalog, Teams: teams, Game: g, GameName: name, ModOptions: o,
		Seat: seat, RulesSeat: rs, Timing: battle.Timing(cfg, bf.noTimeout), Record: record, Log: logw})
	if err != nil {
		return err
	}
	s := res.Final
	if asJSON {
		err = writeModJSON(stdout, name, s, res.Logs)
	} else {
		writeModStandings(stdout, g, s, res.Logs)
	}
	if res.RulesErr != nil {
		return fmt.Errorf("the battle stopped: %w", res.RulesErr)
	}
	return err
}

// modOptions are the options of a rule mod battle from the configuration;
// the caller adds the seed and workers.
func modOptions(flags *pflag.FlagSet, cfg config.Config, g *luabind.Game) engine.ModOptions {
	return engine.ModOptions{Size: modSize(flags, cfg, g), Wrap: cfg.Arena.Wrap, Rounds: cfg.Rules.Rounds}
}

// modJSON is the contract of `run --game NAME --json`.
type modJSON struct {
	Game       string        `json:"game"`
	Seed       uint64        `json:"seed"`
	Rounds     int           `json:"rounds"`
	Size       int           `json:"size"`
	Winner     *string       `json:"winner"`
	WinnerTeam *int          `json:"winner_team"`
	Columns    []string      `json:"columns"`
	Teams      []modTeamJSON `json:"teams"`
	// Problems are the first problem of each team and class, as run
	// --json's.
	Problems []problemJSON `json:"problems"`
}

type modTeamJSON struct {
	Team     int    `json:"team"`
	Player   string `json:"player"`
	Values   []int  `json:"values"`
	Units    int    `json:"units"`
	Timeouts int    `json:"timeouts"`
	Errors   int    `json:"errors"`
	// Log and Retired are as run --json's.
	Log     []string     `json:"log"`
	Retired *retiredJSON `json:"retired,omitempty"`
}

func writeModJSON(w io.Writer, game string, s *engine.Snapshot, logs [][]string) error {
	out := modJSON{Game: safe(game), Seed: s.Seed, Rounds: s.Round, Size: s.Size, Columns: safeAll(s.Columns), Problems: problemsJSON(s)}
	if s.Winner >= 0 {
		name, team := safe(s.Teams[s.Winner].Player.Name), s.Winner
		out.Winner, out.WinnerTeam = &name, &team
	}
	for _, t := range s.Teams {
		out.Teams = append(out.Teams, modTeamJSON{Team: t.Team, Player: safe(t.Player.Name), Values: t.Values,
			Units: t.Stats.Squares, Timeouts: t.Stats.Timeouts, Errors: t.Stats.Errors, Log: logJSON(logs, t.Team), Retired: retiredOf(t)})
	}
	data, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

func writeModStandings(w io.Writer, g *luabind.Game, s *engine.Snapshot, logs [][]string) {
	title := safe(g.Info.Name)
	if title == "" {
		title = safe(g.Dir)
	}
	fmt.Fprintf(w, "%s: %d×%d board, seed %d, %s played (limit %d)\n\n", title, s.Size, s.Size, s.Seed, plural(s.Round, "round"), s.Rounds)
	writeWinner(w, s, func(t engine.TeamView) string { return fmt.Sprintf("%s %d", safe(s.Columns[0]), t.Values[0]) })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "team\tplayer\t")
	for _, col := range s.Columns {
		fmt.Fprintf(tw, "%s\t", safe(col))
	}
	fmt.Fprintln(tw, "timeouts\terrors\t")
	for _, t := range s.Teams {
		fmt.Fprintf(tw, "%d\t%s\t", t.Team, safe(t.Player.Name))
		for _, v := range t.Values {
			fmt.Fprintf(tw, "%d\t", v)
		}
		fmt.Fprintf(tw, "%d\t%d\t\n", t.Stats.Timeouts, t.Stats.Errors)
	}
	tw.Flush()
	writeRetired(w, s, logs)
	for _, p := range s.FirstProblems {
		fmt.Fprintf(w, "  round %d, team %d: %s\n", p.Round, p.Team, safe(p.Message))
	}
}
