package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/squarebattle/squarebattle/scripts"
)

// playerID is what a new player's file may be called: its id is typed on
// command lines, so lower-case letters, digits, _ and -.
var playerID = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// newCommand writes a commented starter player, the shipped Starter under
// a new name, into the scripts folder, and says how to check and watch it.
func newCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("new", &c)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: squarebattle new [flags] NAME\n\nWrites scripts/NAME.lua, a commented starter player.\n\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return bad(errors.New("new takes exactly one NAME"))
	}
	id := strings.TrimSuffix(fs.Arg(0), ".lua")
	if !playerID.MatchString(id) {
		return bad(fmt.Errorf("%q: a player's name is 1 to 32 lower-case letters, digits, _ or -, starting with a letter", id))
	}
	cfg, err := loadConfig(fs, &c)
	if err != nil {
		return err
	}
	dir := diskScripts(cfg)
	if dir == "" {
		dir = "scripts"
	}
	file := filepath.Join(dir, id+".lua")
	if _, err := os.Stat(file); err == nil {
		return bad(fmt.Errorf("%s already exists; pick another NAME", file))
	}
	src, err := scripts.FS.ReadFile("starter.lua")
	if err != nil {
		return err
	}
	display := strings.ToUpper(id[:1]) + id[1:]
	src = bytes.Replace(src, []byte(`name = "Starter"`), []byte(fmt.Sprintf("name = %q", display)), 1)
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		// A scripts folder replaces the shipped players: start it with
		// them, so the new one has opponents (and the games stay).
		if err := copyShipped(dir); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Made %s with the shipped players and games.\n", dir)
	}
	if err := writeFileAtomic(file, func(w io.Writer) error { _, err := w.Write(src); return err }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s, a starter player named %q: read its comments, then make it yours.\n", file, display)
	fmt.Fprintf(stdout, "Check it:  squarebattle check %s          (problems with file:line, a trial battle)\n", file)
	fmt.Fprintf(stdout, "           squarebattle check --all %s    (win rates against every player)\n", file)
	fmt.Fprintf(stdout, "Watch it:  squarebattle play %s explorer   (e shows its problems and its print log)\n", id)
	return nil
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
