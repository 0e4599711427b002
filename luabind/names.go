package luabind

import (
	"fmt"
	"strings"

	"github.com/squarebattle/squarebattle/engine/names"
)

// checkNames breaks the starting players whose display name would make a
// name on the command line, in a table or in a replay mean two players.
// It reports whether it broke any.
//
//   - A display name equal to the id of another file (ignoring case) is an
//     impersonation: `name = "wanderer"` in a file sorting before
//     wanderer.lua would be listed, and once was fielded, as Wanderer. The
//     impersonating class is broken, naming the file it collides with.
//   - Two starting players with the same display name (ignoring case): the
//     later in id order is broken, naming the earlier, so the first keeps
//     the name and both files are named in the message.
//   - A display name holding a character that does not show (a zero-width
//     space, a bidi mark, a tag character...) is broken, naming it.
//
// "The same" is as a reader sees it (engine/names.Key): after Unicode
// normalisation, without invisible characters, with Cyrillic and Greek
// look-alikes read as the Latin letters they imitate. "Ехрlorer" written
// with Cyrillic letters is the Explorer's name.
//
// A name equal to its own file's id is of course fine. Broken classes stay
// in All with their error, so `players` and `check` show why.
func (c *Catalog) checkNames() bool {
	ids := map[string]*Class{}
	for _, cls := range c.All {
		k := names.Key(cls.ID)
		if _, ok := ids[k]; !ok {
			ids[k] = cls
		}
	}
	broken := false
	taken := map[string]*Class{}
	for _, cls := range c.loaded { // in id order
		if cls.Err != nil || cls.Name == "" {
			continue
		}
		if err := names.Check(cls.Name); err != nil {
			cls.Err = fmt.Errorf("%s: name %q: %v; a player's name is what others read", cls.File, cls.Name, err)
			broken = true
			continue
		}
		k := names.Key(cls.Name)
		if other, ok := ids[k]; ok && !strings.EqualFold(other.ID, cls.ID) {
			cls.Err = fmt.Errorf("%s: name %q reads as the id of %s; a player's name must not be another file's name", cls.File, cls.Name, other.File)
			broken = true
			continue
		}
		if first, ok := taken[k]; ok {
			cls.Err = fmt.Errorf("%s: name %q reads as the name of %s (%q); two players must not share a name", cls.File, cls.Name, first.File, first.Name)
			broken = true
			continue
		}
		taken[k] = cls
	}
	return broken
}
