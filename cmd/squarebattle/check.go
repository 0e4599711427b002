package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

const checkHelp = `usage: squarebattle check [flags] FILE.lua
       squarebattle check [flags] --bot COMMAND [--game G]

Loads one player script beside the other players of its game, lists every
kind of problem it has (undefined globals without playing; errors,
timeouts, memory, worker crashes in a trial battle, with counts and the
first round and file:line of each), and prints the trial's result: the
winner, the squares left on each team, and the squares a team killed of
its own. With --all it also plays every other player 4 times and reports
the problems of those battles too, with counts per opponent. The exit
status is 1 when the script has problems (in any battle played), 2 when
it cannot be checked at all.

The trial is a battle as the script will meet them: a 32×32 arena where
each team starts with 8 squares (so code that runs once the team has
grown runs at once), for the configured round limit (rules.rounds, 1500);
--size, --rounds and --seed change it. Each battle stops early once the
script has lost 2,000 turns to timeouts and errors, or has had 100,000
turns (squares × rounds), so that one costs at most 100,000 calls of at
most limits.instructions (10,000) each: some seconds at the very worst.

A script in a folder with a rules.lua is a player of that rule mod; --game
names the game of a script kept elsewhere. A rule mod's trial keeps the
game's board and plays until the game ends by its rules, at most 20,000
rounds (--rounds changes it); a game whose rules declare a games option
(a match of many games, as snake's) plays a match of 1 game unless
--option games=N says otherwise.

With --bot COMMAND, check checks a bot (docs/bots.md) instead: a
conformance run (hello and ready; SquareBattle rounds with a square on
every edge and corner of a 6×6 arena, without and with wrap; a rule mod's
first 30 rounds; end, after which the bot must exit), then the same trial
battle, each kind of fault with its count, first round and the line the
bot wrote, and the last lines it wrote to standard error.`

// Trial battles. SquareBattle's: checkSize × checkSize unless --size says
// otherwise, each team starting with checkSquares squares, for the
// configured round limit. A rule mod's keep the game's board and play to
// the end of the game, at most checkModRounds rounds unless --rounds says
// otherwise; a match of many games is a match of one (checkGamesOption).
// Every battle stops at checkBounds.
const (
	checkSize        = 32
	checkSquares     = 8
	checkModRounds   = 20000
	checkGamesOption = "games"
)

var checkBounds = trialBounds{faults: 2000, turns: 100000}

// checkCommand loads one player script beside the other players of its
// game, lists its problems with file:line, plays a trial battle and, with
// --all, a few battles against every other player.
func checkCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("check", &c)
	all := fs.Bool("all", false, fmt.Sprintf("also play every other player (%d battles each) and report the win rates and problems", allBattles))
	game := fs.String("game", "", "the rule mod the script plays (default: the game of the script's folder when it holds a rules.lua, else SquareBattle)")
	botCommand := fs.String("bot", "", `check a bot instead of a script: its command, e.g. "python3 mybot.py" (no shell; see docs/bots.md)`)
	helpOn(fs, stdout, checkHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.Changed("bot") {
		if fs.NArg() != 0 || *all {
			return bad(errors.New("check --bot COMMAND takes no FILE.lua and no --all"))
		}
		return checkBot(fs, &c, *game, *botCommand, stdout)
	}
	if fs.NArg() != 1 {
		return bad(errors.New("check takes exactly one FILE.lua (squarebattle check [flags] FILE.lua)"))
	}
	file := fs.Arg(0)
	if !strings.HasSuffix(file, ".lua") {
		return bad(fmt.Errorf("%s: a player script must end in .lua", file))
	}
	id := strings.TrimSuffix(filepath.Base(file), ".lua")
	if id == luabind.RulesID {
		return bad(fmt.Errorf("%s is a game's rules, not a player: check one of the game's players", file))
	}
	cfg, g, players, err := checkGame(fs, &c, *game, file)
	if err != nil {
		return err
	}
	src, err := readInput(file, cfg.Limits.ScriptBytes, "limits.script_bytes")
	if err != nil {
		return err
	}
	// Put the script beside the other players so that it can replicate
	// into them, in a scratch folder that the real one never sees.
	dir, err := os.MkdirTemp("", "squarebattle-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyScripts(players, dir); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, id+".lua"), src, 0o644); err != nil {
		return err
	}
	ck, err := newChecker(fs, cfg, g, os.DirFS(dir), filepath.Dir(file))
	if err != nil {
		return err
	}
	mine := ck.class(id)
	switch {
	case mine == nil:
		return bad(fmt.Errorf("%s: a player's file name must not start with a dot", file))
	case mine.Err != nil:
		return bad(ck.loadError(mine.Err, *game == "" && g == nil, cfg))
	}
	return ck.report(stdout, file, mine, *all)
}

// checkGame loads the configuration and finds the game file plays: the
// one --game names, else the folder's when it holds a rules.lua, else
// SquareBattle (g nil). players is the folder of the players file joins.
func checkGame(flags *pflag.FlagSet, c *commonFlags, name, file string) (cfg config.Config, g *luabind.Game, players fs.FS, err error) {
	if cfg, err = loadConfig(flags, c); err != nil {
		return cfg, nil, nil, err
	}
	var sub fs.FS
	var gameDir string
	if name != "" {
		if sub, gameDir, err = gameFS(cfg, name); err != nil {
			return cfg, nil, nil, err
		}
	} else if dir := filepath.Dir(file); isFile(filepath.Join(dir, luabind.RulesFile)) && !sameDir(dir, diskScripts(cfg)) {
		// (The scripts folder itself is SquareBattle's, whatever its
		// files are called.)
		sub, gameDir = os.DirFS(dir), dir
	} else {
		players, _, err = scriptsFS(cfg)
		return cfg, nil, players, err
	}
	if cfg, g, err = loadGameIn(flags, c, cfg, sub, gameDir, true); err != nil {
		return cfg, nil, nil, err
	}
	if g.Info.Protocol == luabind.SquareBattleProtocol {
		// Rules in Lua for SquareBattle's own players.
		players, _, err = scriptsFS(cfg)
		return cfg, g, players, err
	}
	return cfg, g, sub, nil
}

// sameDir reports whether a and b name the same existing folder.
func sameDir(a, b string) bool {
	if b == "" {
		return false
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

func isFile(name string) bool {
	st, err := os.Stat(name)
	return err == nil && st.Mode().IsRegular()
}

// readInput reads a file the user named, of at most limit bytes, without
// reading more of a larger file (or a device) than that; why names the
// bound in the error. Every failure is bad input naming the file.
func readInput(file string, limit int, why string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, bad(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, bad(fmt.Errorf("%s is a folder, not a file", file))
	}
	data, err := battle.ReadAtMost(f, limit)
	if err != nil {
		return nil, bad(fmt.Errorf("%s: %w (%s)", file, err, why))
	}
	return data, nil
}

// checker holds what check plays with: the catalog the script was loaded
// into, and how to start a battle of its game.
type checker struct {
	cfg   config.Config
	cat   *luabind.Catalog
	game  *luabind.Game // a rule mod with its own protocol, or nil
	rules *luabind.Game // rules in Lua for SquareBattle's players, or nil
	flags *pflag.FlagSet
	// oneGame: the rule mod plays matches of many games, and the trial
	// plays a match of one (checkGamesOption).
	oneGame bool
}

// newChecker loads the scratch folder dir (named in messages as named):
// SquareBattle's players, or a rule mod's with its rules.
func newChecker(flags *pflag.FlagSet, cfg config.Config, g *luabind.Game, dir fs.FS, named string) (*checker, error) {
	ck := &checker{cfg: cfg, flags: flags}
	if g == nil || g.Info.Protocol == luabind.SquareBattleProtocol {
		ck.rules = g
		cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: dir, Dir: named, Limits: battle.Limits(cfg)})
		ck.cat = cat
		return ck, err
	}
	mod, err := luabind.LoadGame(dir, named, battle.Limits(cfg))
	if err != nil {
		return nil, bad(err)
	}
	opts := map[string]string{}
	for k, v := range cfg.Options {
		opts[k] = v
	}
	if _, declared := mod.Info.Options[checkGamesOption]; declared && opts[checkGamesOption] == "" {
		opts[checkGamesOption] = "1"
		ck.oneGame = true
	}
	if err := mod.SetOptions(opts); err != nil {
		return nil, bad(err)
	}
	ck.game, ck.cat = mod, mod.Catalog
	return ck, nil
}

// class returns the class with id, loaded or broken, or nil.
func (ck *checker) class(id string) *luabind.Class {
	for _, cls := range ck.cat.All {
		if cls.ID == id {
			return cls
		}
	}
	return nil
}

// loadError is why the script does not load; when it has no run function
// and no game was named, it may be a rule mod's player, and the message
// says how to check one.
func (ck *checker) loadError(err error, guessed bool, cfg config.Config) error {
	if !guessed || !strings.HasSuffix(err.Error(), "has no run function") {
		return err
	}
	fsys, _, ferr := scriptsFS(cfg)
	if ferr != nil {
		return err
	}
	return fmt.Errorf("%w (a rule mod's player? name its game with --game: %s)", err, strings.Join(battle.Games(fsys), ", "))
}

// opponent is who the trial battle is against: Explorer in SquareBattle,
// else the first other starting player, else the script itself.
func (ck *checker) opponent(mine *luabind.Class) *luabind.Class {
	if ck.game == nil && mine.ID != "explorer" {
		if p, err := ck.cat.Find("explorer"); err == nil {
			return p
		}
	}
	for _, p := range ck.cat.Players() {
		if p != mine {
			return p
		}
	}
	return mine
}

// report prints what check found and returns the one-line verdict: nil
// when the script has no problem.
func (ck *checker) report(w io.Writer, file string, mine *luabind.Class, all bool) error {
	if mine.Name == "" {
		fmt.Fprintf(w, "%s loads. It has no name, so it is not a starting player: it can only be replicated into.\n", safe(file))
	} else {
		fmt.Fprintf(w, "%s loads: starting player \"%s\".\n", safe(file), safe(mine.Name))
	}
	// Misspelt names on paths the trial battle may never take.
	undefined := ck.cat.UndefinedGlobals(mine)
	if len(undefined) > 0 {
		fmt.Fprintf(w, "\nUndefined globals (found without playing): %d\n", len(undefined))
		for _, u := range undefined {
			fmt.Fprintf(w, "  %s:%d: %s\n", safe(file), u.Line, safe(u.Error()))
		}
	}
	seed := battle.Seed(ck.cfg)
	other := ck.opponent(mine)
	t, err := ck.start([]*luabind.Class{mine, other}, seed)
	if err != nil {
		return err
	}
	r := playTrial(t, 0, checkBounds)
	t.close()
	fmt.Fprintf(w, "\nTrial battle against %s (%s):\n", safe(other.DisplayName()), ck.describe(r.final))
	r.write(w, ck.game != nil)
	if log := t.seats[0].Log(); len(log) > 0 {
		fmt.Fprintln(w, "\nLast lines printed:")
		for _, l := range log[max(0, len(log)-10):] {
			fmt.Fprintf(w, "  %s\n", engine.SafeLine(l))
		}
	}
	if err := t.err(); err != nil {
		return fmt.Errorf("the trial battle stopped: %w", err)
	}
	me := r.final.Teams[0].Stats
	kinds, timeouts, errs := len(r.kinds), me.Timeouts, me.Errors
	battles, faulty := 1, min(len(r.kinds), 1)
	if all {
		played, err := ck.playAll(w, mine, seed)
		if err != nil {
			return err
		}
		// Kinds seen in the trial count once.
		seen := map[[2]string]bool{}
		for _, k := range r.kinds {
			seen[[2]string{k.label, k.what}] = true
		}
		for _, k := range allKinds(played) {
			if !seen[[2]string{k.label, k.what}] {
				kinds++
			}
		}
		for _, b := range played {
			st := b.r.final.Teams[0].Stats
			timeouts, errs = timeouts+st.Timeouts, errs+st.Errors
			battles++
			if len(b.r.kinds) > 0 {
				faulty++
			}
		}
	}
	var found []string
	if len(undefined) > 0 {
		found = append(found, plural(len(undefined), "undefined global"))
	}
	if kinds > 0 {
		in := ""
		if battles > 1 {
			in = fmt.Sprintf("; in %d of %d battles", faulty, battles)
		}
		found = append(found, fmt.Sprintf("%s of problem while playing (%s, %s%s)", plural(kinds, "kind"), plural(timeouts, "timeout"), plural(errs, "error"), in))
	}
	if len(found) > 0 {
		return fmt.Errorf("%s: %s", file, strings.Join(found, ", "))
	}
	return nil
}

// describe says where and how long a trial battle was played.
func (ck *checker) describe(s *engine.Snapshot) string {
	d := fmt.Sprintf("%d×%d, seed %d, at most %s", s.Size, s.Size, s.Seed, plural(s.Rounds, "round"))
	switch {
	case ck.game == nil:
		d = fmt.Sprintf("%d×%d, %s a team, seed %d, at most %s", s.Size, s.Size, plural(trialSquares(s.Size, len(s.Teams)), "square"), s.Seed, plural(s.Rounds, "round"))
	case ck.oneGame:
		d += fmt.Sprintf(", a match of 1 game (--option %s=1)", checkGamesOption)
	}
	return d
}

// trial is a battle check plays, SquareBattle's or a rule mod's.
type trial struct {
	battle.Stepper
	rec   *engine.Recorder
	seats []luabind.Seat
	close func()
	err   func() error // a rule mod's rules failure, or nil
	// capped: the battle's round limit is the trial's, below the one the
	// game ends by (a rule mod's result at the limit is no result).
	capped bool
	// line, for a bot's trial, is the line the bot wrote in a round
	// (tapConn.lineOf); nil for a Lua player's.
	line func(round int) string
}

// start begins a battle of players with seed, behind the configured walls.
func (ck *checker) start(players []*luabind.Class, seed uint64) (*trial, error) {
	seat, rs, err := wallsOf(ck.cfg)
	if err != nil {
		return nil, err
	}
	rounds := ck.cfg.Rules.Rounds
	if ck.game != nil {
		capped := false
		if !ck.flags.Changed("rounds") && rounds > checkModRounds {
			rounds, capped = checkModRounds, true
		}
		o := modOptions(ck.flags, ck.cfg, ck.game)
		o.Rounds, o.Seed, o.Workers = rounds, seed, 1
		b, err := luabind.NewWalledModBattle(ck.game, players, o, ck.cfg.Limits.RulesInstructions, seat, rs)
		if err != nil {
			return nil, bad(err)
		}
		return &trial{Stepper: b, rec: engine.NewModRecorder(b.ModBattle), seats: b.Seats, close: b.Close, err: b.Err, capped: capped}, nil
	}
	size := ck.cfg.Arena.Size
	if !ck.flags.Changed("size") {
		size = checkSize
	}
	o := engine.Options{Size: size, Wrap: ck.cfg.Arena.Wrap, Rounds: rounds, ReplicateRounds: ck.cfg.Rules.ReplicateRounds, Seed: seed, Workers: 1}
	if size > 0 {
		o.Map, o.MapFile = trialMap(size, len(players), seed), "the trial's arena"
	}
	b, err := luabind.NewWalledBattle(ck.cat, players, o, ck.rules, ck.cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		return nil, bad(err)
	}
	return &trial{Stepper: b, rec: engine.NewRecorder(b.Battle), seats: b.Seats, close: b.Close, err: b.Err}, nil
}

// trialMap is the arena a SquareBattle trial starts from: each of teams
// with checkSquares squares (fewer on an arena too small for them all)
// on cells drawn from seed.
func trialMap(size, teams int, seed uint64) *engine.Map {
	m := &engine.Map{Size: size, Cells: make([]int, size*size)}
	free := make([]int, size*size)
	for i := range m.Cells {
		m.Cells[i], free[i] = engine.Empty, i
	}
	each := trialSquares(size, teams)
	rng := engine.NewRand(seed, engine.StreamPlacement)
	for n := 0; n < each; n++ {
		for t := 0; t < teams && len(free) > 0; t++ {
			k := rng.IntN(len(free))
			m.Cells[free[k]] = t
			free[k] = free[len(free)-1]
			free = free[:len(free)-1]
		}
	}
	return m
}

// trialSquares is how many squares each of teams starts with in a trial
// on a size × size arena: checkSquares, or as many as half the arena holds.
func trialSquares(size, teams int) int {
	return max(1, min(checkSquares, size*size/(2*teams)))
}

// copyScripts copies the top-level .lua files of from into dir.
func copyScripts(from fs.FS, dir string) error {
	entries, err := fs.ReadDir(from, ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".lua") {
			continue
		}
		data, err := fs.ReadFile(from, e.Name())
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// plural is "1 square", "2 squares".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
