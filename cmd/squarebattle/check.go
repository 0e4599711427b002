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
)

const checkHelp = `usage: squarebattle check [flags] FILE.lua

Loads one player script beside the other players of its game, lists every
kind of problem it has (undefined globals without playing; errors and
timeouts in a trial battle, with counts and the first file:line of each),
and prints the trial's result: the winner, the squares left on each team,
and the squares a team killed of its own. The exit status is 1 when the
script has problems, 2 when it cannot be checked at all.

A script in a folder with a rules.lua is a player of that rule mod; --game
names the game of a script kept elsewhere.`

// Trial battles: SquareBattle's are small and short unless --size or
// --rounds say otherwise; a rule mod's keep the game's board and play at
// most checkModRounds rounds unless --rounds says otherwise.
const (
	checkSize      = 16
	checkRounds    = 300
	checkModRounds = 500
)

// checkCommand loads one player script beside the other players of its
// game, lists its problems with file:line, plays a trial battle and, with
// --all, a few battles against every other player.
func checkCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("check", &c)
	all := fs.Bool("all", false, fmt.Sprintf("also play every other player (%d battles each) and print the win rates", allBattles))
	game := fs.String("game", "", "the rule mod the script plays (default: the game of the script's folder when it holds a rules.lua, else SquareBattle)")
	helpOn(fs, stdout, checkHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
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
	data, err := readAtMost(f, limit)
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
}

// newChecker loads the scratch folder dir (named in messages as named):
// SquareBattle's players, or a rule mod's with its rules.
func newChecker(flags *pflag.FlagSet, cfg config.Config, g *luabind.Game, dir fs.FS, named string) (*checker, error) {
	ck := &checker{cfg: cfg, flags: flags}
	if g == nil || g.Info.Protocol == luabind.SquareBattleProtocol {
		ck.rules = g
		cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: dir, Dir: named, Limits: limitsOf(cfg)})
		ck.cat = cat
		return ck, err
	}
	mod, err := luabind.LoadGame(dir, named, limitsOf(cfg))
	if err != nil {
		return nil, bad(err)
	}
	if err := mod.SetOptions(cfg.Options); err != nil {
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
	return fmt.Errorf("%w (a rule mod's player? name its game with --game: %s)", err, strings.Join(games(fsys), ", "))
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
	seed := battleSeed(ck.cfg)
	other := ck.opponent(mine)
	t, err := ck.start([]*luabind.Class{mine, other}, seed)
	if err != nil {
		return err
	}
	r := playTrial(t, 0)
	t.close()
	fmt.Fprintf(w, "\nTrial battle against %s (%s):\n", safe(other.DisplayName()), ck.describe(r.final))
	r.write(w, ck.game != nil)
	if log := t.seats[0].Log(); len(log) > 0 {
		fmt.Fprintln(w, "\nLast lines printed:")
		for _, l := range log[max(0, len(log)-10):] {
			fmt.Fprintf(w, "  %s\n", engine.SafeLine(l))
		}
	}
	if all {
		if err := ck.playAll(w, mine, seed); err != nil {
			return err
		}
	}
	if err := t.err(); err != nil {
		return fmt.Errorf("the trial battle stopped: %w", err)
	}
	var found []string
	if len(undefined) > 0 {
		found = append(found, plural(len(undefined), "undefined global"))
	}
	if len(r.kinds) > 0 {
		st := r.final.Teams[0].Stats
		found = append(found, fmt.Sprintf("%s of problem while playing (%s, %s)", plural(len(r.kinds), "kind"), plural(st.Timeouts, "timeout"), plural(st.Errors, "error")))
	}
	if len(found) > 0 {
		return fmt.Errorf("%s: %s", file, strings.Join(found, ", "))
	}
	return nil
}

// describe says where and how long a trial battle was played.
func (ck *checker) describe(s *engine.Snapshot) string {
	return fmt.Sprintf("%d×%d, seed %d, at most %s", s.Size, s.Size, s.Seed, plural(s.Rounds, "round"))
}

// trial is a battle check plays, SquareBattle's or a rule mod's.
type trial struct {
	stepper
	rec   *engine.Recorder
	seats []luabind.Seat
	close func()
	err   func() error // a rule mod's rules failure, or nil
}

// start begins a battle of players with seed, behind the configured walls.
func (ck *checker) start(players []*luabind.Class, seed uint64) (*trial, error) {
	seat, rs, err := wallsOf(ck.cfg)
	if err != nil {
		return nil, err
	}
	rounds := ck.cfg.Rules.Rounds
	if ck.game != nil {
		if !ck.flags.Changed("rounds") {
			rounds = min(rounds, checkModRounds)
		}
		o := modOptions(ck.flags, ck.cfg, ck.game)
		o.Rounds, o.Seed, o.Workers = rounds, seed, 1
		b, err := luabind.NewWalledModBattle(ck.game, players, o, ck.cfg.Limits.RulesInstructions, seat, rs)
		if err != nil {
			return nil, bad(err)
		}
		return &trial{stepper: b, rec: engine.NewModRecorder(b.ModBattle), seats: b.Seats, close: b.Close, err: b.Err}, nil
	}
	size := ck.cfg.Arena.Size
	if !ck.flags.Changed("size") {
		size = checkSize
	}
	if !ck.flags.Changed("rounds") {
		rounds = checkRounds
	}
	o := engine.Options{Size: size, Wrap: ck.cfg.Arena.Wrap, Rounds: rounds, ReplicateRounds: ck.cfg.Rules.ReplicateRounds, Seed: seed, Workers: 1}
	b, err := luabind.NewWalledBattle(ck.cat, players, o, ck.rules, ck.cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		return nil, bad(err)
	}
	return &trial{stepper: b, rec: engine.NewRecorder(b.Battle), seats: b.Seats, close: b.Close, err: b.Err}, nil
}

// allBattles is how many battles check --all plays against each player.
const allBattles = 4

// playAll plays mine against every other starting player of its game, one
// on one, allBattles times each with seeds following seed, and prints a
// line per opponent: won, lost, tied, win rate.
func (ck *checker) playAll(w io.Writer, mine *luabind.Class, seed uint64) error {
	fmt.Fprintf(w, "\nAgainst every player (%d battles each, seeds %d to %d):\n", allBattles, seed, seed+allBattles-1)
	fmt.Fprintf(w, "  %-20s %4s %5s %5s %9s\n", "opponent", "won", "lost", "tied", "win rate")
	for _, other := range ck.cat.Players() {
		if other == mine {
			continue
		}
		var won, lost, tied int
		for i := uint64(0); i < allBattles; i++ {
			t, err := ck.start([]*luabind.Class{mine, other}, seed+i)
			if err != nil {
				return err
			}
			for t.Step() {
			}
			switch t.Snapshot().Winner {
			case 0:
				won++
			case 1:
				lost++
			default:
				tied++
			}
			t.close()
		}
		fmt.Fprintf(w, "  %-20s %4d %5d %5d %8d%%\n", safe(other.DisplayName()), won, lost, tied, 100*won/allBattles)
	}
	return nil
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
