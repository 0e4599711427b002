package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// checkCommand loads one script next to the other players, reports its
// problems with file:line, and plays a short battle against Explorer.
func checkCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("check", &c)
	all := fs.Bool("all", false, "also play every other player (4 battles each) and print the win rates")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: squarebattle check [flags] FILE.lua\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return bad(fmt.Errorf("check takes exactly one script file"))
	}
	file := fs.Arg(0)
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return bad(err)
	}
	if !strings.HasSuffix(file, ".lua") {
		return bad(fmt.Errorf("%s: a player script must end in .lua", file))
	}
	// Put the script beside the other players so that it can replicate
	// into them, in a scratch folder that the real one never sees.
	base, _, err := scriptsFS(cfg)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "squarebattle-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := copyScripts(base, dir); err != nil {
		return err
	}
	id := strings.TrimSuffix(filepath.Base(file), ".lua")
	if err := os.WriteFile(filepath.Join(dir, id+".lua"), src, 0o644); err != nil {
		return err
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: os.DirFS(dir), Dir: filepath.Dir(file), Limits: limitsOf(cfg)})
	if err != nil {
		return err
	}
	var mine *luabind.Class
	for _, cls := range cat.All {
		if cls.ID == id {
			mine = cls
		}
	}
	if mine.Err != nil {
		return bad(mine.Err)
	}
	if mine.Name == "" {
		fmt.Fprintf(stdout, "%s loads. It has no name, so it is not a starting player: it can only be replicated into.\n", safe(file))
	} else {
		fmt.Fprintf(stdout, "%s loads: starting player \"%s\".\n", safe(file), safe(mine.Name))
	}
	// Misspelt names on paths the trial battle may never take.
	undefined := cat.UndefinedGlobals(mine)
	for _, u := range undefined {
		fmt.Fprintf(stdout, "  %s:%d: %s\n", safe(file), u.Line, safe(u.Error()))
	}
	explorer, err := cat.Find("explorer")
	if err != nil {
		return err
	}
	const size, rounds = 16, 300
	o := engine.Options{Size: size, Wrap: true, Rounds: rounds, ReplicateRounds: cfg.Rules.ReplicateRounds, Seed: battleSeed(cfg), Workers: 1}
	seat, err := seaterOf(cfg)
	if err != nil {
		return err
	}
	b, err := luabind.NewSeatedBattle(cat, []*luabind.Class{mine, explorer}, o, seat)
	if err != nil {
		return err
	}
	defer b.Close()
	s := b.Run()
	st := s.Teams[0].Stats
	result := "no winner"
	if s.Winner >= 0 && s.Winner < len(s.Teams) {
		result = safe(s.Teams[s.Winner].Player.Name) + " won"
	}
	fmt.Fprintf(stdout, "Trial battle against Explorer (%d×%d, seed %d): %s after %d rounds; %s has %s (births %d, kills %d, deaths %d, own-team collisions %d), %d timeouts, %d errors.\n",
		size, size, s.Seed, result, s.Round, safe(mine.DisplayName()), plural(st.Squares, "square"), st.Births, st.Kills, st.Deaths, st.Collisions, st.Timeouts, st.Errors)
	problems := 0
	for _, p := range s.FirstProblems {
		if p.Team == 0 {
			problems++
			fmt.Fprintf(stdout, "  round %d, %s: %s\n", p.Round, p.Kind, safe(p.Message))
			for _, l := range strings.Split(p.Trace, "\n") {
				if l != "" {
					fmt.Fprintf(stdout, "    %s\n", l)
				}
			}
		}
	}
	if log := b.Seats[0].Log(); len(log) > 0 {
		fmt.Fprintln(stdout, "Last lines printed:")
		for _, l := range log[max(0, len(log)-10):] {
			fmt.Fprintf(stdout, "  %s\n", engine.SafeLine(l))
		}
	}
	if *all {
		if err := checkAll(stdout, cat, mine, o, seat); err != nil {
			return err
		}
	}
	if len(undefined) > 0 {
		if problems == 0 {
			return fmt.Errorf("%s: %s", file, plural(len(undefined), "undefined global"))
		}
		return fmt.Errorf("%s: %s, %s of problem while playing (%d timeouts, %d errors)", file, plural(len(undefined), "undefined global"), plural(problems, "kind"), st.Timeouts, st.Errors)
	}
	if problems > 0 {
		return fmt.Errorf("%s: %s of problem while playing (%d timeouts, %d errors)", file, plural(problems, "kind"), st.Timeouts, st.Errors)
	}
	return nil
}

// allBattles is how many battles check --all plays against each player.
const allBattles = 4

// checkAll plays mine against every other starting player of cat, one on
// one, allBattles times each with seeds following o.Seed, and prints a
// line per opponent: won, lost, tied, win rate.
func checkAll(w io.Writer, cat *luabind.Catalog, mine *luabind.Class, o engine.Options, seat luabind.Seater) error {
	fmt.Fprintf(w, "Against every player (%d battles each, %d×%d, %d rounds):\n", allBattles, o.Size, o.Size, o.Rounds)
	fmt.Fprintf(w, "  %-20s %4s %5s %5s %9s\n", "opponent", "won", "lost", "tied", "win rate")
	for _, other := range cat.Players() {
		if other == mine {
			continue
		}
		var won, lost, tied int
		for i := 0; i < allBattles; i++ {
			bo := o
			bo.Seed = o.Seed + uint64(i)
			b, err := luabind.NewSeatedBattle(cat, []*luabind.Class{mine, other}, bo, seat)
			if err != nil {
				return err
			}
			switch s := b.Run(); s.Winner {
			case 0:
				won++
			case 1:
				lost++
			default:
				tied++
			}
			b.Close()
		}
		fmt.Fprintf(w, "  %-20s %4d %5d %5d %8d%%\n", safe(other.DisplayName()), won, lost, tied, 100*won/allBattles)
	}
	return nil
}

func copyScripts(from fs.FS, dir string) error {
	entries, err := fs.ReadDir(from, ".")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".lua") {
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
