package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/scripts"
)

// playerID is what a new player's file may be called: its id is typed on
// command lines, so lower-case letters, digits, _ and -.
var playerID = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

const newHelp = `usage: squarebattle new [flags] NAME

Writes a commented starter player, scripts/NAME.lua (with --game G,
scripts/G/NAME.lua, started from the simplest of the game's players), and
says how to check and watch it. Without a scripts folder, one is made
with the shipped players and games.`

// newCommand writes a commented starter player into the scripts folder, or
// into a game's folder with --game, and says how to check and watch it.
func newCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("new", &c)
	game := fs.String("game", "", "write a player of this rule mod (a folder of the scripts folder with a rules.lua)")
	helpOn(fs, stdout, newHelp)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return bad(errors.New("new takes exactly one NAME (squarebattle new [flags] NAME)"))
	}
	id := strings.TrimSuffix(fs.Arg(0), ".lua")
	if !playerID.MatchString(id) || id == luabind.RulesID {
		return bad(fmt.Errorf("%q: a player's name is 1 to 32 lower-case letters, digits, _ or -, starting with a letter, and not %q", id, luabind.RulesID))
	}
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	dir := diskScripts(cfg)
	if dir == "" {
		dir = "scripts"
	}
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return bad(fmt.Errorf("scripts folder %s is not a folder", dir))
	}
	display := strings.ToUpper(id[:1]) + id[1:]
	var st starter
	if *game == "" {
		st, err = squareBattleStarter(display, filepath.Join(dir, id+".lua"))
	} else {
		st, err = gameStarter(fs, &c, *game, filepath.Join(dir, *game, id+".lua"), display)
	}
	if err != nil {
		return err
	}
	file := filepath.Join(dir, st.folder, id+".lua")
	if _, err := os.Stat(file); err == nil {
		return bad(fmt.Errorf("%s already exists; pick another NAME", file))
	}
	if missing(dir) {
		// A scripts folder replaces the shipped players: start it with
		// them, so the new one has opponents (and the games stay).
		if err := copyShipped(dir); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Made %s with the shipped players and games.\n", dir)
	}
	if err := writeFileAtomic(file, func(w io.Writer) error { _, err := w.Write(st.src); return err }); err != nil {
		return err
	}
	// check finds a player's game from its folder; play needs --game.
	check, play := "squarebattle check", "squarebattle play"
	if st.folder != "" {
		play = "squarebattle play --game " + st.folder
	}
	fmt.Fprintf(stdout, "Wrote %s, a starter player named %q: read its comments, then make it yours.\n", file, display)
	fmt.Fprintf(stdout, "Check it:  %s %s          (problems with file:line, a trial battle)\n", check, file)
	fmt.Fprintf(stdout, "           %s --all %s    (win rates against every player)\n", check, file)
	fmt.Fprintf(stdout, "Watch it:  %s %s %s   (e shows its problems and its print log)\n", play, id, st.opponent)
	return nil
}

// starter is a new player's source, the folder of the scripts folder it
// goes in ("" for SquareBattle) and a player to watch it against.
type starter struct {
	src      []byte
	folder   string
	opponent string
}

// nameRe finds a player's display name in its table.
var nameRe = regexp.MustCompile(`name\s*=\s*"[^"\n]*"`)

// squareBattleStarter is the shipped Starter under a new name, at file,
// with its opening instructions (copy me, rename me) replaced by what is
// true of the new file: new did both.
func squareBattleStarter(display, file string) (starter, error) {
	src, err := scripts.FS.ReadFile("starter.lua")
	if err != nil {
		return starter{}, err
	}
	src, _ = rename(src, display)
	id := strings.TrimSuffix(filepath.Base(file), ".lua")
	howTo := fmt.Sprintf("-- %s is in %s, written by `squarebattle new %s`.\n"+
		"-- Its id, %q, is the file's name; its name, %q, is the one below,\n"+
		"-- shown in every table. Change it, then try it:\n"+
		"--   squarebattle check %s\n"+
		"--   squarebattle play %s explorer\n--\n",
		display, filepath.ToSlash(file), id, id, display, filepath.ToSlash(file), id)
	src = bytes.Replace(src, []byte(starterTitle), []byte("-- "+display+": a player started from the Starter, to make your own."), 1)
	if i, j := bytes.Index(src, []byte(howToStart)), bytes.Index(src, []byte(howToEnd)); i >= 0 && j > i {
		src = append(append(append([]byte{}, src[:i]...), howTo...), src[j:]...)
	}
	return starter{src: src, opponent: "explorer"}, nil
}

// howToStart and howToEnd frame the Starter's instructions for a copy made
// by hand; TestNewStarterSaysWhatIsTrue keeps them in step with the file.
const (
	starterTitle = "-- Starter: a small, complete player to copy and make your own."
	howToStart   = "-- How to use it:\n"
	howToEnd     = "-- The whole guide is docs/scripting.md."
)

// rename gives the first name = "..." of a player's source the display
// name; ok is false when there is none.
func rename(src []byte, display string) (out []byte, ok bool) {
	loc := nameRe.FindIndex(src)
	if loc == nil {
		return src, false
	}
	out = append(out, src[:loc[0]]...)
	out = append(out, fmt.Sprintf("name = %q", display)...)
	return append(out, src[loc[1]:]...), true
}

// gameStarter is a player for the rule mod game: the shortest of its
// players (the simplest to start from) under a new name, after comments
// that say what the rules call and where to read about it.
func gameStarter(flags *pflag.FlagSet, c *commonFlags, game, file, display string) (starter, error) {
	cfg, err := loadConfig(flags, c)
	if err != nil {
		return starter{}, err
	}
	// The game as it will be once the player is written: the scripts
	// folder's, or the shipped one when newCommand is about to make the
	// folder from the shipped scripts.
	var sub iofs.FS
	var gameDir string
	if dir := filepath.Dir(filepath.Dir(file)); missing(dir) {
		sub, gameDir, err = gameIn(scripts.FS, dir, game)
	} else {
		sub, gameDir, err = gameFS(cfg, game)
	}
	if err != nil {
		return starter{}, err
	}
	_, g, err := loadGameIn(flags, c, cfg, sub, gameDir, true)
	if err != nil {
		return starter{}, err
	}
	if g.Info.Protocol == luabind.SquareBattleProtocol {
		st, err := squareBattleStarter(display, filepath.Join(filepath.Dir(filepath.Dir(file)), filepath.Base(file)))
		st.folder = "" // SquareBattle's players play these rules
		return st, err
	}
	var from *luabind.Class
	var src []byte
	for _, p := range g.Players() {
		data, err := iofs.ReadFile(sub, p.ID+".lua")
		if err == nil && (from == nil || len(data) < len(src)) {
			from, src = p, data
		}
	}
	if from == nil {
		return starter{}, bad(fmt.Errorf("%s has no player to start from", gameDir))
	}
	title := g.Info.Name
	if title == "" {
		title = game
	}
	head := fmt.Sprintf(`-- %s: a player of %s (--game %s), started from a copy of %s.
--
-- The game's rules call this table's %[6]s function. What %[6]s is
-- given and what it must return: the top of %[5]s
-- and docs/modding.md. Change it, then:
--   squarebattle check %[7]s
--   squarebattle play --game %[3]s %[8]s %[9]s
--
`, display, engine.SafeText(title), game, engine.SafeText(from.DisplayName()), path.Join(gameDir, luabind.RulesFile), g.Info.Entry,
		filepath.ToSlash(file), strings.TrimSuffix(filepath.Base(file), ".lua"), from.ID)
	body, ok := rename(src, display)
	if !ok {
		return starter{}, bad(fmt.Errorf("%s: no name = \"...\" to rename", from.File))
	}
	return starter{src: append([]byte(head), body...), folder: game, opponent: from.ID}, nil
}

// missing reports whether nothing is at path name.
func missing(name string) bool {
	_, err := os.Stat(name)
	return errors.Is(err, os.ErrNotExist)
}

// copyShipped writes the shipped players and game folders into dir.
func copyShipped(dir string) error {
	return iofs.WalkDir(scripts.FS, ".", func(p string, d iofs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if strings.HasSuffix(p, ".go") {
			return nil
		}
		data, err := scripts.FS.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}
