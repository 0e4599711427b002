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
	"github.com/squarebattle/squarebattle/luabind/battle"
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
	file := filepath.Join(dir, id+".lua")
	if *game != "" {
		file = filepath.Join(dir, *game, id+".lua")
	}
	h := hints{file: file, id: id, scripts: flagArgs(fs, "config", "scripts")}
	var st starter
	if *game == "" {
		st, err = squareBattleStarter(display, h)
	} else {
		st, err = gameStarter(fs, &c, *game, display, h)
	}
	if err != nil {
		return err
	}
	file = filepath.Join(dir, st.folder, id+".lua")
	h.file, h.game, h.opponent = file, st.game, st.opponent
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
	fmt.Fprintf(stdout, "Wrote %s, a starter player named %q: read its comments, then make it yours.\n", file, display)
	for _, l := range h.lines() {
		fmt.Fprintf(stdout, "  %s\n", l)
	}
	fmt.Fprintln(stdout, commandNote)
	return nil
}

// commandNote says where the squarebattle command of the hints comes from.
const commandNote = "(No squarebattle command? go install ./cmd/squarebattle makes one in $(go env GOPATH)/bin; in the repository, go run ./cmd/squarebattle works too.)"

// hints are the commands new prints, and writes into the new player's
// comments, to check and watch it: every one runs as written in the folder
// new ran in.
type hints struct {
	file     string   // the new player's file
	id       string   // its class id
	game     string   // its rule mod, or "" for SquareBattle's players
	opponent string   // a player to watch it against
	scripts  []string // flags naming the scripts folder, as new was given them
}

// lines are the commands, each with a comment saying what it does.
func (h hints) lines() []string {
	var game []string
	if h.game != "" {
		game = []string{"--game", h.game}
	}
	cmds := []struct {
		args []string
		what string
	}{
		{join(h.scripts, []string{h.file}), "problems with file:line, a trial battle"},
		{join(h.scripts, []string{"--all", h.file}), "and against every player: win rates, problems"},
		{join(h.scripts, game, []string{h.id, h.opponent}), "watch it (e shows its problems and its print log)"},
	}
	cmds[0].args = append([]string{"check"}, cmds[0].args...)
	cmds[1].args = append([]string{"check"}, cmds[1].args...)
	cmds[2].args = append([]string{"play"}, cmds[2].args...)
	if h.game == "" {
		cmds = append(cmds, struct {
			args []string
			what string
		}{append([]string{"run"}, join(h.scripts, []string{h.id, h.opponent})...), "a battle without the terminal UI: its standings"})
	}
	var out []string
	width := 0
	for _, c := range cmds {
		width = max(width, len(shellLine(c.args)))
	}
	for _, c := range cmds {
		out = append(out, fmt.Sprintf("%-*s  # %s", width, shellLine(c.args), c.what))
	}
	return out
}

// join concatenates lists of arguments.
func join(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// shellLine is "squarebattle" and args as a shell command line: an
// argument a shell would split or expand is quoted.
func shellLine(args []string) string {
	out := "squarebattle"
	for _, a := range args {
		out += " " + shellQuote(a)
	}
	return out
}

var plainArg = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

func shellQuote(a string) string {
	if plainArg.MatchString(a) {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// flagArgs are the flags names of fs that were given, as arguments.
func flagArgs(fs *pflag.FlagSet, names ...string) []string {
	var out []string
	for _, n := range names {
		if f := fs.Lookup(n); f != nil && f.Changed {
			out = append(out, "--"+n, f.Value.String())
		}
	}
	return out
}

// starter is a new player's source, the folder of the scripts folder it
// goes in ("" for SquareBattle), the game it plays ("" for SquareBattle's
// players) and a player to watch it against.
type starter struct {
	src      []byte
	folder   string
	game     string
	opponent string
}

// nameRe finds a player's display name in its table.
var nameRe = regexp.MustCompile(`name\s*=\s*"[^"\n]*"`)

// starterGuide starts the part of the shipped Starter's comments that a
// player made by new keeps: what comes before it says how to make one.
const starterGuide = "-- The whole guide is docs/scripting.md."

// squareBattleStarter is the shipped Starter under a new name, its comments
// on how to copy it replaced by the commands that check and watch it.
func squareBattleStarter(display string, h hints) (starter, error) {
	src, err := scripts.FS.ReadFile("starter.lua")
	if err != nil {
		return starter{}, err
	}
	at := bytes.Index(src, []byte(starterGuide))
	if at < 0 {
		return starter{}, fmt.Errorf("starter.lua: no %q line", starterGuide)
	}
	h.opponent = "explorer"
	head := fmt.Sprintf("-- %s: your player, made by squarebattle new %s\n"+
		"-- from a copy of the Starter. Its class id is its file name without\n"+
		"-- \".lua\", %s; name below is what the game lists. Read the comments,\n"+
		"-- make it yours, then:\n", display, h.id, h.id)
	for _, l := range h.lines() {
		head += "--   " + l + "\n"
	}
	head += "--\n"
	src, _ = rename(append([]byte(head), src[at:]...), display)
	return starter{src: src, opponent: "explorer"}, nil
}

// rename gives the first name = "..." of a player's source outside its
// comments the display name; ok is false when there is none.
func rename(src []byte, display string) (out []byte, ok bool) {
	for _, loc := range nameRe.FindAllIndex(src, -1) {
		lineStart := bytes.LastIndexByte(src[:loc[0]], '\n') + 1
		if bytes.Contains(src[lineStart:loc[0]], []byte("--")) {
			continue // in a comment
		}
		out = append(out, src[:loc[0]]...)
		out = append(out, fmt.Sprintf("name = %q", display)...)
		return append(out, src[loc[1]:]...), true
	}
	return src, false
}

// gameStarter is a player for the rule mod game: the shortest of its
// players (the simplest to start from) under a new name, after comments
// that say what the rules call, where to read about it and how to check
// and watch the new player (h, which names its file).
func gameStarter(flags *pflag.FlagSet, c *commonFlags, game, display string, h hints) (starter, error) {
	cfg, err := loadConfig(flags, c)
	if err != nil {
		return starter{}, err
	}
	// The game as it will be once the player is written: the scripts
	// folder's, or the shipped one when newCommand is about to make the
	// folder from the shipped scripts.
	var sub iofs.FS
	var gameDir string
	if dir := filepath.Dir(filepath.Dir(h.file)); missing(dir) {
		sub, gameDir, err = battle.GameIn(scripts.FS, dir, game)
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
		// SquareBattle's players play these rules, from the scripts
		// folder itself.
		h.file = filepath.Join(filepath.Dir(filepath.Dir(h.file)), h.id+".lua")
		h.game = game
		st, err := squareBattleStarter(display, h)
		st.game = game
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
	h.game, h.opponent = game, from.ID
	head := fmt.Sprintf(`-- %s: a player of %s (--game %s), started from a copy of %s.
--
-- The game's rules call this table's %s function. What it is given and
-- what it must return: the top of %s
-- and docs/modding.md. Change it, then:
`, display, engine.SafeText(title), game, engine.SafeText(from.DisplayName()), g.Info.Entry, path.Join(filepath.ToSlash(gameDir), luabind.RulesFile))
	for _, l := range h.lines() {
		head += "--   " + l + "\n"
	}
	head += "--\n"
	body, ok := rename(src, display)
	if !ok {
		return starter{}, bad(fmt.Errorf("%s: no name = \"...\" to rename", from.File))
	}
	return starter{src: append([]byte(head), body...), folder: game, game: game, opponent: from.ID}, nil
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
