package luabind

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing/fstest"
)

// CatalogSource is what a catalog was built from: enough for another
// process (a worker, luabind/worker) to build the same catalog, with the
// same classes under the same ids, without reading the folder again.
type CatalogSource struct {
	Dir    string
	Entry  string
	Limits Limits
	Files  []SourceFile // in the folder's order; unreadable files left out
	// Require, when set, is the entry function every class but rules.lua
	// must have: a rule mod's folder once its rules said what they call
	// (LoadGame). Classes without it are left out, shifting the ids.
	Require string
}

// SourceFile is one script file of a catalog's folder.
type SourceFile struct {
	Name string
	Data []byte
}

// Source returns what the catalog was built from. The files' bytes are
// shared with the catalog: callers must not change them.
func (c *Catalog) Source() CatalogSource {
	s := c.source
	s.Files = slices.Clip(s.Files)
	return s
}

// LoadCatalogSource builds a catalog from a source, as LoadCatalog built
// the original from its folder; extra are CatalogOptions.Extra.
func LoadCatalogSource(s CatalogSource, extra ...Global) (*Catalog, error) {
	files := fstest.MapFS{}
	for _, f := range s.Files {
		if _, dup := files[f.Name]; dup || !fs.ValidPath(f.Name) || strings.Contains(f.Name, "/") || f.Name == "." {
			return nil, errors.New("catalog source: a file name is repeated or not a plain name")
		}
		files[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o444}
	}
	c, err := LoadCatalog(CatalogOptions{FS: files, Dir: s.Dir, Limits: s.Limits, Entry: s.Entry, Extra: extra})
	if err == nil && s.Require != "" {
		c.requireEntry(s.Require, RulesID)
	}
	return c, err
}
