package battle

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/squarebattle/squarebattle/engine/tournament"
	"github.com/squarebattle/squarebattle/luabind"
)

// Games lists the rule mods of a scripts folder: its sub-folders that hold
// a rules.lua.
func Games(fsys fs.FS) []string {
	entries, _ := fs.ReadDir(fsys, ".")
	var out []string
	for _, e := range entries {
		if _, err := fs.Stat(fsys, path.Join(e.Name(), luabind.RulesFile)); e.IsDir() && err == nil {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// ReadBounded reads a file of fsys that must be at most limit bytes; a
// larger one is an error, and is never read whole.
func ReadBounded(fsys fs.FS, name string, limit int) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAtMost(f, limit)
}

// ReadAtMost reads r to its end if that is at most limit bytes away,
// reading no more than limit+1 bytes of it in any case.
func ReadAtMost(r io.Reader, limit int) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err == nil && len(data) > limit {
		err = fmt.Errorf("larger than %d bytes", limit)
	}
	return data, err
}

// GameIn finds the folder of the rule mod name in the scripts folder fsys,
// named dir in messages.
func GameIn(fsys fs.FS, dir, name string) (fs.FS, string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || name == "." || name == ".." {
		return nil, "", Bad(fmt.Errorf("--game %q: a game is a folder name", name))
	}
	sub, err := fs.Sub(fsys, name)
	if err == nil {
		_, err = fs.Stat(sub, luabind.RulesFile)
	}
	if err != nil {
		known := Games(fsys)
		return nil, "", Bad(fmt.Errorf("no game %q in %s (games there: %s; without --game, SquareBattle)", name, dir, strings.Join(known, ", ")))
	}
	return sub, path.Join(dir, name), nil
}

// Seated lists a game's players by team: Seats[t] plays team t.
func Seated(classes []*luabind.Class, game tournament.Game) []*luabind.Class {
	players := make([]*luabind.Class, len(game.Seats))
	for t, e := range game.Seats {
		players[t] = classes[e]
	}
	return players
}
