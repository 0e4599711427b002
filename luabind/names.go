package luabind

import (
	"fmt"
	"strings"
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
//
// A name equal to its own file's id is of course fine. Broken classes stay
// in All with their error, so `players` and `check` show why.
func (c *Catalog) checkNames() bool {
	ids := map[string]*Class{}
	for _, cls := range c.All {
		k := strings.ToLower(cls.ID)
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
		k := strings.ToLower(cls.Name)
		if other, ok := ids[k]; ok && !strings.EqualFold(other.ID, cls.ID) {
			cls.Err = fmt.Errorf("%s: name %q is the id of %s; a player's name must not be another file's name", cls.File, cls.Name, other.File)
			broken = true
			continue
		}
		if first, ok := taken[k]; ok {
			cls.Err = fmt.Errorf("%s: name %q is already the name of %s; two players must not share a name", cls.File, cls.Name, first.File)
			broken = true
			continue
		}
		taken[k] = cls
	}
	return broken
}
