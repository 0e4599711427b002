package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

const challengeUsage = `usage: squarebattle tournament challenge --game NAME [flags] [PLAYER...]

The battlesnake challenge, for any rule mod: a solo part (each player alone,
on the same seed) and a king-of-the-hill part (everyone in one battle). Each
part ranks the players by the game's score (its first score column; equal
scores share a rank); the two ranks are summed and the lowest sum wins, a
tie going to the better king-of-the-hill rank. With snake, a battle is a
whole match (10 games alone, best of 39 together), as in the seed.`

// challengeCommand plays the two parts of a challenge and prints the rank-sum
// standings ("tournament challenge").
func challengeCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("tournament challenge", &c)
	game := fs.String("game", "", "the rule mod to play (required), e.g. snake")
	asJSON := fs.Bool("json", false, "print the standings as one JSON object")
	fs.Lookup("seed").Usage = "the challenge's seed, shared by every player; 0 picks a random one and prints it"
	fs.Lookup("workers").Usage = "battles played at once (0 = one per CPU); the standings do not depend on it"
	helpOn(fs, stdout, challengeUsage)
	bf := addBotFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *game == "" {
		return bad(errors.New("tournament challenge needs --game NAME"))
	}
	cfg, g, err := loadGame(fs, &c, *game)
	if err != nil {
		return err
	}
	teams, err := pickTeams(cfg, g.Catalog, *game, fs.Args(), bf)
	if err != nil {
		return err
	}
	classes := battle.TeamPlayers(teams)
	if len(classes) < 2 {
		return bad(errors.New("a challenge needs at least two players"))
	}
	seed := battle.Seed(cfg)
	if cfg.Seed == 0 {
		fmt.Fprintf(stderr, "challenge: seed %d\n", seed)
	}
	var players []tournament.Player
	for _, cls := range classes {
		players = append(players, tournament.Player{ID: cls.ID, Name: cls.DisplayName()})
	}
	o := modOptions(fs, cfg, g)
	o.Workers = 1
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		return err
	}
	tb := battle.NewTournamentBots(cfg, g.Catalog, g, *game, teams, battle.Timing(cfg, bf.noTimeout))
	play := playModGame(g, *game, classes, o, cfg.Limits.RulesInstructions, seat, rs, nil, tb)
	scores := func(format tournament.Format) ([]int, error) {
		p := tournament.Params{Format: format, Games: 1, Seed: seed, Players: players}
		schedule := p.Schedule()
		out := make([]int, len(players))
		for _, r := range tournament.Run(schedule, play, tournament.RunOptions{Workers: battle.Workers(cfg)}) {
			if r.Error != "" {
				return nil, fmt.Errorf("%s battle %d failed: %s", format, r.Game, r.Error)
			}
			for t, tr := range r.Teams {
				if len(tr.Values) > 0 {
					out[schedule[r.Game].Seats[t]] = tr.Values[0]
				}
			}
		}
		return out, nil
	}
	solo, err := scores(tournament.Solo)
	if err != nil {
		return err
	}
	koth, err := scores(tournament.KOTH)
	if err != nil {
		return err
	}
	rows := tournament.RankSum(solo, koth)
	players = tb.Named(players) // a bot as it named itself in ready
	if *asJSON {
		type row struct {
			tournament.ChallengeRow
			ID   string `json:"id"`
			Name string `json:"name"`
		}
		out := struct {
			Game  string `json:"game"`
			Seed  uint64 `json:"seed"`
			Score string `json:"score"`
			Rows  []row  `json:"standings"`
		}{Game: *game, Seed: seed, Score: g.Info.Columns[0]}
		for _, r := range rows {
			out.Rows = append(out.Rows, row{ChallengeRow: r, ID: safe(players[r.Player].ID), Name: safe(players[r.Player].Name)})
		}
		data, err := json.Marshal(out)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", data)
		return err
	}
	fmt.Fprintf(stdout, "%s challenge, seed %d: solo and king of the hill, ranked by %s; the lowest rank sum wins\n\n", safe(*game), seed, safe(g.Info.Columns[0]))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "place\tplayer\trank sum\tKOTH rank\tsolo rank\tKOTH score\tsolo score\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%d\t%d\t%d\t\n", r.Place, safe(players[r.Player].Name), r.Sum, r.KOTHRank, r.SoloRank, r.KOTH, r.Solo)
	}
	return tw.Flush()
}
