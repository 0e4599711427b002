package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// defaultGames is --games 0 for each format.
var defaultGames = map[tournament.Format]int{tournament.RoundRobin: 2, tournament.KOTH: 20, tournament.Solo: 10}

const tournamentUsage = `usage: squarebattle tournament [flags] [PLAYER...]
       squarebattle tournament merge [--json|--csv|--markdown] [--out FILE] FILE...

Plays many headless battles in parallel and ranks the players. With no
PLAYER, every starting player enters. Formats:

  roundrobin  every pair meets; each of its --games games is one seed played
              twice with the sides swapped, so a pair plays 2×N battles
  koth        king of the hill: everyone in every battle, N battles, the
              seating rotating so nobody always has team 0
  solo        each player alone, N battles each, battle k of every player on
              the same seed; compared on squares alive, then rounds survived

Players of one battle (or, in solo, one seed) are ranked by squares at the
end, then by how long they lasted, and every pair of them scores a win, a
draw or a loss: a koth battle of four is three results for each player. The
win rate counts a draw as half a win and comes with its Wilson 95% interval.
Ratings are Glicko-2 (start 1500/350/0.06, tau 0.5), one rating period per
round of the schedule. The same --seed gives the same standings with any
--workers, and --shard I/N runs one slice of the battles (those whose index
mod N is I) into --out; 'tournament merge' combines the slices into the
standings of the whole run. --shard auto/N takes I from JOB_COMPLETION_INDEX
(Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array).

--game NAME plays a rule mod's players (e.g. paint) the same way; a
battle ranks its teams by the winner the rules declared, then by the
game's score columns in order (in solo: by the columns, seed by seed),
and the standings show each column's mean instead of squares and survived.`

const mergeUsage = `usage: squarebattle tournament merge [flags] FILE...

Combines the results files the shards of one tournament wrote (each run
with --shard I/N --out FILE) into the standings of the whole tournament,
as if it had been played in one go.`

// tournamentCommand plays a tournament, or one shard of it, or merges
// shards ("tournament merge").
func tournamentCommand(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "merge" {
		return mergeCommand(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "challenge" {
		return challengeCommand(args[1:], stdout, stderr)
	}
	var c commonFlags
	fs := newFlagSet("tournament", &c)
	formatName := fs.String("format", "roundrobin", "roundrobin, koth or solo")
	gamesFlag := fs.Int("games", 0, "games per pair (roundrobin; each played both ways), battles (koth), battles per player (solo); 0 = 2, 20 or 10")
	shardFlag := fs.String("shard", "", "play only slice I of N (I/N, or auto/N from the batch system's task index) and write it to --out")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	recordDir := fs.String("record-dir", "", "write every battle's replay into this folder (game-INDEX-seed-SEED.sbr); none are written without it")
	out := addOutputFlags(fs)
	fs.Lookup("seed").Usage = "tournament seed (every battle's seed derives from it); 0 picks a random one and prints it"
	fs.Lookup("workers").Usage = "battles played at once (0 = one per CPU); the standings do not depend on it"
	helpOn(fs, stdout, tournamentUsage)
	game := fs.String("game", "", "play a rule mod's tournament: a folder of the scripts folder with a rules.lua (e.g. paint)")
	bf := addBotFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := out.check(); err != nil {
		return err
	}
	format, err := tournament.ParseFormat(*formatName)
	if err != nil {
		return bad(err)
	}
	var (
		cfg     config.Config
		cat     *luabind.Catalog
		g       *luabind.Game
		classes []*luabind.Class
	)
	if *game != "" {
		if cfg, g, err = loadGame(fs, &c, *game); err != nil {
			return err
		}
		cat = g.Catalog
	} else {
		if cfg, err = loadConfig(fs, &c); err != nil {
			return err
		}
		if cat, err = loadCatalog(cfg); err != nil {
			return err
		}
	}
	teams, err := pickTeams(cfg, cat, *game, fs.Args(), bf)
	if err != nil {
		return err
	}
	classes = battle.TeamPlayers(teams)
	tb := battle.NewTournamentBots(cfg, cat, g, *game, teams, battle.Timing(cfg, bf.noTimeout))
	shard := tournament.Whole
	if *shardFlag != "" {
		if shard, err = tournament.ParseShard(*shardFlag, os.Getenv); err != nil {
			return bad(err)
		}
		if cfg.Seed == 0 {
			return bad(errors.New("--shard needs --seed: every shard must play the same schedule"))
		}
		if out.file == "" {
			return bad(errors.New("--shard needs --out FILE for the shard's results"))
		}
	}
	if fs.NArg() == 0 {
		for _, cls := range cat.All {
			if cls.Err != nil {
				fmt.Fprintf(stderr, "tournament: leaving out %s: %s\n", safe(cls.File), safe(cls.Err.Error()))
			}
		}
	}
	p := tournament.Params{Format: format, Games: *gamesFlag, Seed: battle.Seed(cfg)}
	if p.Games == 0 {
		p.Games = defaultGames[format]
	}
	for _, cls := range classes {
		p.Players = append(p.Players, tournament.Player{ID: cls.ID, Name: cls.DisplayName()})
	}
	if g != nil {
		p.Game, p.Columns = *game, g.Info.Columns
	}
	if p.Setup, err = setupOf(cfg, p.Game); err != nil {
		return err
	}
	if err := p.Check(); err != nil {
		return bad(err)
	}
	schedule := p.Schedule()
	var play tournament.Play
	var rec *gameRecorder
	if *recordDir != "" {
		if err := os.MkdirAll(*recordDir, 0o755); err != nil {
			return bad(fmt.Errorf("--record-dir: %w", err))
		}
		rec = &gameRecorder{cfg: cfg, dir: *recordDir}
	}
	parallel := battle.Workers(cfg) // battles at once
	// Build the first battle once: options no battle could use (too many
	// teams for the arena) are one error now rather than one per battle.
	if g != nil {
		o := modOptions(fs, cfg, g)
		o.Workers = 1
		seat, rs, err := wallsOf(cfg)
		if err != nil {
			return err
		}
		if tb != nil {
			o.Codec = luabind.PlainJSON
		}
		players, bseat, _ := tb.Battle(classes, schedule[0], seat, o.Seed, o.Size, o.Wrap, o.Rounds, false)
		b, err := luabind.NewWalledModBattle(g, players, o, cfg.Limits.RulesInstructions, bseat, rs)
		if err != nil {
			return bad(err)
		}
		b.Close()
		play = playModGame(g, *game, classes, o, cfg.Limits.RulesInstructions, seat, rs, rec, tb)
	} else {
		o := battleOptions(cfg)
		seat, err := seaterOf(cfg)
		if err != nil {
			return err
		}
		players, bseat, _ := tb.Battle(classes, schedule[0], seat, o.Seed, o.Size, o.Wrap, o.Rounds, false)
		b, err := luabind.NewSeatedBattle(cat, players, o, bseat)
		if err != nil {
			return bad(err)
		}
		b.Close()
		play = playGame(cat, classes, o, seat, rec, tb)
		grp, width, err := groupOf(cfg)
		if err != nil {
			return err
		}
		if tb != nil {
			grp = nil // bots are no Lua teams to group in workers
		}
		if grp != nil {
			defer grp.Close()
			play, parallel = playGrouped(cat, classes, o, grp, rec), width
		} else {
			reserveWorkers(cfg, parallel*len(schedule[0].Seats))
		}
	}
	// Said once nothing the user gave can fail any more, so that bad
	// input stays one line on stderr.
	if cfg.Seed == 0 {
		fmt.Fprintf(stderr, "tournament: seed %d\n", p.Seed)
	}

	games := shard.Games(schedule)
	prog := newProgress(stderr, len(games), *quiet)
	results := tournament.Run(games, play, tournament.RunOptions{Workers: parallel, Progress: prog.update})
	prog.finish()
	if rec != nil {
		for i, err := range rec.errs {
			if i == 3 {
				fmt.Fprintf(stderr, "tournament: %d more replays could not be written\n", len(rec.errs)-i)
				break
			}
			fmt.Fprintf(stderr, "tournament: replay not written: %s\n", oneLine(err))
		}
	}
	f := &tournament.File{Version: tournament.FileVersion, Params: p, Shard: shard, Results: results}
	if out.file != "" {
		if err := writeFileAtomic(out.file, f.Encode); err != nil {
			return err
		}
	}
	if shard != tournament.Whole {
		reportFailures(stderr, results, len(games))
		fmt.Fprintf(stdout, "tournament: shard %s: %d of %d battles written to %s\n", shard, len(games), len(schedule), out.file)
		return nil
	}
	// The standings call a bot by the name it gave in ready (the results
	// file keeps the names listed, which every shard shares).
	named := p
	named.Players = tb.Named(p.Players)
	return out.write(stdout, stderr, tournament.Compute(named, results))
}

// mergeCommand combines shard results files into the whole tournament's
// standings.
func mergeCommand(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("tournament merge", pflag.ContinueOnError)
	fs.SortFlags = false
	out := addOutputFlags(fs)
	helpOn(fs, stdout, mergeUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := out.check(); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return bad(errors.New("tournament merge needs the results files of the shards"))
	}
	files := make([]*tournament.File, fs.NArg())
	for i, name := range fs.Args() {
		r, err := os.Open(name)
		if err != nil {
			return bad(err)
		}
		files[i], err = tournament.Decode(name, r)
		r.Close()
		if err != nil {
			return bad(err)
		}
	}
	f, err := tournament.Merge(fs.Args(), files)
	if err != nil {
		return bad(err)
	}
	if out.file != "" {
		if err := writeFileAtomic(out.file, f.Encode); err != nil {
			return err
		}
	}
	return out.write(stdout, stderr, tournament.Compute(f.Params, f.Results))
}

// battleOptions are the options every battle of a tournament shares; each
// game adds its seed. One battle runs on one goroutine (Workers 1): the
// tournament's parallelism is across battles.
func battleOptions(cfg config.Config) engine.Options {
	o := battle.Options(cfg)
	o.Workers = 1
	return o
}

// setupOf lists everything besides the schedule that decides a battle: the
// arena, rules and limits, and a SHA-256 of every script (a player may
// replicate into any of them). For a rule mod (game not empty) it is the
// game's name, its rules budget and every script of its folder, rules.lua
// included. Shards must agree on all of it to merge.
func setupOf(cfg config.Config, game string) (map[string]string, error) {
	l := cfg.Limits
	setup := map[string]string{
		"arena.size":             strconv.Itoa(cfg.Arena.Size),
		"arena.wrap":             strconv.FormatBool(cfg.Arena.Wrap),
		"rules.rounds":           strconv.Itoa(cfg.Rules.Rounds),
		"rules.replicate_rounds": strconv.Itoa(cfg.Rules.ReplicateRounds),
		"limits.instructions":    strconv.Itoa(l.Instructions),
		"limits.memory_mib":      strconv.Itoa(l.MemoryMiB),
		"limits.string_bytes":    strconv.Itoa(l.StringBytes),
		"limits.script_bytes":    strconv.Itoa(l.ScriptBytes),
		"limits.call_depth":      strconv.Itoa(l.CallDepth),
	}
	dir := "."
	if game != "" {
		delete(setup, "rules.replicate_rounds") // SquareBattle's rule
		setup["game"] = game
		setup["limits.rules_instructions"] = strconv.Itoa(l.RulesInstructions)
		for name, value := range cfg.Options {
			setup["options."+name] = value
		}
		dir = game
	}
	fsys, _, err := scriptsFS(cfg)
	if err != nil {
		return nil, err
	}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".lua") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		name := path.Join(dir, e.Name())
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		setup["script "+name] = "sha256:" + hex.EncodeToString(sum[:])
	}
	return setup, nil
}

// playGame returns the tournament's Play: it fields the game's seats as
// teams and plays the battle to its end. With a recorder, every battle is
// also written to a replay file; a replay that cannot be written is
// reported but does not change the result.
//
// tb, when not nil, starts the bots of each battle (each battle its own
// processes) and tells them its end.
func playGame(cat *luabind.Catalog, classes []*luabind.Class, o engine.Options, seat luabind.Seater, rec *gameRecorder, tb *battle.TournamentBots) tournament.Play {
	return func(g tournament.Game) (tournament.Result, error) {
		players, seat, bots := tb.Battle(classes, g, seat, g.Seed, o.Size, o.Wrap, o.Rounds, true)
		o := o
		o.Seed = g.Seed
		b, err := luabind.NewSeatedBattle(cat, players, o, seat)
		if err != nil {
			battle.StopBots(bots)
			return tournament.Result{}, err
		}
		defer b.Close()
		var final *engine.Snapshot
		if rec == nil {
			final = b.Run()
		} else {
			final = rec.play(cat, g, b)
		}
		battle.FinishBots(b.Seats, final, replay.EndReason(final))
		return battle.ResultOf(final), nil
	}
}

// playModGame is playGame for a rule mod. A battle whose rules fail counts
// for nobody. With a recorder, every battle is also written to a replay.
func playModGame(g *luabind.Game, name string, classes []*luabind.Class, o engine.ModOptions, rulesBudget int, seat luabind.Seater, rs luabind.RulesSeater, rec *gameRecorder, tb *battle.TournamentBots) tournament.Play {
	return func(game tournament.Game) (tournament.Result, error) {
		players, seat, bots := tb.Battle(classes, game, seat, game.Seed, o.Size, o.Wrap, o.Rounds, true)
		o := o
		o.Seed = game.Seed
		if bots != nil {
			o.Workers, o.Codec = len(players), luabind.PlainJSON // every team asked at once
		}
		b, err := luabind.NewWalledModBattle(g, players, o, rulesBudget, seat, rs)
		if err != nil {
			battle.StopBots(bots)
			return tournament.Result{}, err
		}
		defer b.Close()
		var final *engine.Snapshot
		if rec == nil {
			for b.Step() {
			}
			final = b.Snapshot()
		} else {
			final = rec.playMod(name, g, players, o, game, b, tb.Classes(players))
		}
		battle.FinishBots(b.Seats, final, replay.EndReason(final))
		if err := b.Err(); err != nil {
			return tournament.Result{}, err
		}
		return battle.ResultOf(final), nil
	}
}

// playMod plays a rule mod battle to its end, writing its replay.
//
// classes are the battle's classes, bots' own included (nil: the
// catalog's).
func (r *gameRecorder) playMod(name string, g *luabind.Game, players []*luabind.Class, o engine.ModOptions, game tournament.Game, b *luabind.ModBattle, classes []string) *engine.Snapshot {
	f, err := replay.Create(gameFile(r.dir, game), battle.ModHeader(r.cfg, name, g, players, o, classes, b.Seats), b.Snapshot())
	if err == nil {
		var final *engine.Snapshot
		if final, err = battle.Record(b, engine.NewModRecorder(b.ModBattle), f.Writer, b.Err); err == nil {
			if err = f.Close(); err == nil {
				return final
			}
			r.fail(err)
			return final
		}
		f.Abort()
		err = fmt.Errorf("game %d: %w", game.Index, err)
	}
	r.fail(err)
	for b.Step() {
	}
	return b.Snapshot()
}

// gameRecorder writes one replay per battle into a folder (--record-dir).
// Battles run at once, so play is called concurrently; it touches only its
// own battle and file, and errs is guarded.
type gameRecorder struct {
	cfg  config.Config
	dir  string
	mu   sync.Mutex
	errs []error
}

// gameFile names a battle's replay by its place in the schedule and its
// seed, so the shards of one tournament never pick the same name.
func gameFile(dir string, g tournament.Game) string {
	return filepath.Join(dir, fmt.Sprintf("game-%05d-seed-%d.sbr", g.Index, g.Seed))
}

func (r *gameRecorder) play(cat *luabind.Catalog, g tournament.Game, b *luabind.Battle) *engine.Snapshot {
	f, err := replay.Create(gameFile(r.dir, g), battle.Header(r.cfg, cat, b), b.Snapshot())
	if err != nil {
		r.fail(err)
		return b.Run()
	}
	final, err := battle.PlayRecorded(b, f.Writer)
	if err != nil {
		f.Abort()
		r.fail(fmt.Errorf("game %d: %w", g.Index, err))
		for b.Step() {
		}
		return b.Snapshot()
	}
	if err := f.Close(); err != nil {
		r.fail(err)
	}
	return final
}

func (r *gameRecorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err)
}

// atomicTempGlob matches (filepath.Match) the temporary files
// writeFileAtomic writes through, which a killed process leaves behind.
const atomicTempGlob = ".*.tmp"

// writeFileAtomic writes a file through a temporary file in the same
// folder and a rename, so that a reader (or a merge step on a shared
// volume) never sees half a file.
func writeFileAtomic(name string, write func(io.Writer) error) (err error) {
	// The rename must never replace a device, a pipe or a folder.
	if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", name)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
