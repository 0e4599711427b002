package luabind

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Limits bound what one script may cost. See config.Limits for the meaning
// of each; this copy keeps luabind free of the config package.
type Limits struct {
	Instructions int // VM instructions per call
	MemoryBytes  int // reachable Lua heap per team
	StringBytes  int // longest string a script may build
	ScriptBytes  int // largest script file
	CallDepth    int // Lua call-stack depth
}

// DefaultLimits are the limits used when none are configured.
func DefaultLimits() Limits {
	return Limits{Instructions: 10000, MemoryBytes: 64 << 20, StringBytes: 1 << 20, ScriptBytes: 256 << 10, CallDepth: 1000}
}

// Class is one script: one player class.
type Class struct {
	ID      string // the file's base name: tweedledum.lua is "tweedledum"
	File    string // the path shown in messages
	Name    string // display name; set for starting players only
	Victory string
	Defeat  string
	// Err is why the script cannot be used ("file:line: message"); a class
	// with an error is listed but never runs.
	Err error
	// Hash is the SHA-256 of the script's source, hex encoded, so a replay
	// can tell whether a script changed since it was recorded.
	Hash  string
	proto *lua.FunctionProto
	// assigned are the globals the script assigns anywhere (globals.go).
	assigned map[string]bool
}

// Starting reports whether the class can start a team.
func (c *Class) Starting() bool { return c.Err == nil && c.Name != "" }

// DisplayName is the name shown for a team: the player's name, or its id.
func (c *Class) DisplayName() string {
	if c.Name != "" {
		return c.Name
	}
	return c.ID
}

// CatalogOptions say where scripts come from.
type CatalogOptions struct {
	FS     fs.FS  // the folder of scripts (embedded or os.DirFS)
	Dir    string // how to name that folder in messages, e.g. "scripts"
	Limits Limits
	// Entry is the function every script's table must have: "run" when
	// empty (SquareBattle); "-" checks none (a rule mod's folder, checked
	// once its rules say what they call).
	Entry string
	// TopLevels, when set, runs the scripts' top levels somewhere else (a
	// worker process, behind the wall) instead of in this process; the
	// catalog then only compiles here. See TopLevelReader.
	TopLevels TopLevelReader
	// Extra are globals the top levels see (TeamOptions.Extra): only the
	// worker's tests set them.
	Extra []Global
}

// Catalog is every script of a folder, compiled once. It is immutable after
// LoadCatalog and may be shared by any number of teams and battles.
type Catalog struct {
	// All is every player file, sorted by id, broken ones included. A
	// game's rules.lua is not a player: once LoadGame marks it (markRules)
	// it is left out of All, Players and Find, though it keeps its
	// engine.ClassID, so every list of players, wherever it is shown,
	// comes from here without the rules.
	All    []*Class
	loaded []*Class // the usable ones; an engine.ClassID indexes this
	ids    []string
	byID   map[string]engine.ClassID
	limits Limits
	source CatalogSource // what it was built from, to rebuild it elsewhere
	rules  *Class        // a game's rules.lua, not a player (markRules)
	extra  []Global      // CatalogOptions.Extra
}

// ErrUnknownPlayer is wrapped by UnknownPlayerError.
var ErrUnknownPlayer = errors.New("unknown player")

// UnknownPlayerError names a player that is not in the catalog and lists
// those that are.
type UnknownPlayerError struct {
	Name  string
	Known []string
}

func (e *UnknownPlayerError) Error() string {
	return fmt.Sprintf("unknown player %q; known players: %s", e.Name, strings.Join(e.Known, ", "))
}

func (e *UnknownPlayerError) Unwrap() error { return ErrUnknownPlayer }

// LoadCatalog compiles every .lua file at the top of o.FS. A script that
// fails to load is kept with its error and left out of battles; only an
// unreadable folder is an error.
func LoadCatalog(o CatalogOptions) (*Catalog, error) {
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits()
	}
	entries, err := fs.ReadDir(o.FS, ".")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Dir, err)
	}
	c := &Catalog{byID: map[string]engine.ClassID{}, limits: o.Limits, extra: o.Extra}
	c.source = CatalogSource{Dir: o.Dir, Entry: o.Entry, Limits: o.Limits}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".lua") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		// A file name is the one part of a class a script's author
		// picks without running anything; it is shown as safe text, and a
		// name that needs escaping cannot be a class id people type.
		cls := &Class{ID: strings.TrimSuffix(e.Name(), ".lua"), File: path.Join(o.Dir, engine.SafeText(e.Name()))}
		c.All = append(c.All, cls)
		if !engine.IsSafeText(e.Name()) {
			cls.Err = fmt.Errorf("%s: the file name holds control characters; rename the file", cls.File)
			c.source.Files = append(c.source.Files, SourceFile{Name: e.Name()})
			continue
		}
		src, err := fs.ReadFile(o.FS, e.Name())
		if err != nil {
			cls.Err = fmt.Errorf("%s: %w", cls.File, err)
			continue
		}
		c.source.Files = append(c.source.Files, SourceFile{Name: e.Name(), Data: src})
		sum := sha256.Sum256(src)
		cls.Hash = hex.EncodeToString(sum[:])
		cls.proto, cls.Err = compileCached(cls.File, src, o.Limits.ScriptBytes)
		if cls.proto != nil {
			cls.assigned = map[string]bool{}
			assignedGlobals(cls.proto, cls.assigned)
		}
	}
	sort.Slice(c.All, func(i, j int) bool { return c.All[i].ID < c.All[j].ID })
	for _, cls := range c.All {
		if cls.Err == nil {
			c.add(cls)
		}
	}
	if o.TopLevels != nil {
		c.readTopLevelsElsewhere(o.TopLevels)
	} else {
		c.readPlayerInfo(o.Entry)
	}
	return c, nil
}

func (c *Catalog) add(cls *Class) {
	c.byID[cls.ID] = engine.ClassID(len(c.loaded))
	c.loaded = append(c.loaded, cls)
	c.ids = append(c.ids, cls.ID)
}

// MaxNameBytes and MaxSpeechBytes bound a player's display name and its
// victory and defeat speeches: they reach every table, lobby and SSH
// viewer's screen, so a file must not be able to fill those with text.
const (
	MaxNameBytes   = 64
	MaxSpeechBytes = 280
)

// readPlayerInfo runs every compiled script's top level to read its name
// and speeches and to find scripts whose top level fails; those are then
// dropped from the usable classes, as are players whose names would pass
// for another (see checkNames).
//
// Each file runs alone, in a Lua state made for it and closed after it: it
// starts from pristine libraries no other file touched, its memory is its
// own, and it has one call's budget (loadBudgetFactor). Listing a folder
// therefore costs at most one full call per file, and no file can make
// another fail to load.
func (c *Catalog) readPlayerInfo(entry string) {
	broken := false
	for id, cls := range c.loaded {
		c.topLevel(engine.ClassID(id), entry, func(cs *classState) {
			if cs.err != "" {
				cls.Err = errors.New(cs.err)
				broken = true
				return
			}
			for _, f := range playerTexts(cls) {
				switch v := cs.table.RawGetString(f.key).(type) {
				case lua.LString:
					if !setPlayerText(cls, f, string(v)) {
						broken = true
					}
				case *lua.LNilType:
				default:
					cls.Err = fmt.Errorf("%s: %s must be a string, not a %s", cls.File, f.key, v.Type())
					broken = true
				}
			}
		})
	}
	if c.checkNames() || broken {
		c.dropBroken()
	}
}

// playerText is a text a player's table gives: its name or a speech.
type playerText struct {
	key string
	dst *string
	max int
}

// playerTexts are cls's texts: its name, then its victory and defeat
// speeches.
func playerTexts(cls *Class) []playerText {
	return []playerText{{"name", &cls.Name, MaxNameBytes}, {"victory", &cls.Victory, MaxSpeechBytes}, {"defeat", &cls.Defeat, MaxSpeechBytes}}
}

// setPlayerText keeps v as text f of cls, or marks cls broken (false)
// when v is too long.
func setPlayerText(cls *Class, f playerText, v string) bool {
	if len(v) > f.max {
		cls.Err = fmt.Errorf("%s: %s is %d bytes long; at most %d", cls.File, f.key, len(v), f.max)
		return false
	}
	*f.dst = engine.SafeText(strings.TrimSpace(v))
	return true
}

// topLevel runs the top level of usable class id in a scratch Lua state of
// its own and hands the result to read before the state is closed.
func (c *Catalog) topLevel(id engine.ClassID, entry string, read func(*classState)) {
	scratch := NewTeam(TeamOptions{Catalog: c, Size: 1, Teams: 1, Killers: []string{""}, Entry: entry, Extra: c.extra})
	defer scratch.Close()
	scratch.facts = &engine.Facts{}
	read(scratch.class(id))
}

// dropBroken renumbers the usable classes after some were found broken.
func (c *Catalog) dropBroken() {
	old := c.loaded
	c.loaded, c.ids, c.byID = nil, nil, map[string]engine.ClassID{}
	for _, cls := range old {
		if cls.Err == nil {
			c.add(cls)
		}
	}
}

// markRules records that the class with id is a game's rules: not a
// player, so not listed in All, Players or Find.
func (c *Catalog) markRules(id string) {
	for i, cls := range c.All {
		if cls.ID == id {
			c.rules = cls
			c.All = append(c.All[:i:i], c.All[i+1:]...)
			return
		}
	}
}

// requireEntry marks every class but except that has no entry function as
// broken; a rule mod's folder is checked this way once its rules are read.
func (c *Catalog) requireEntry(entry, except string) {
	if except == RulesID {
		c.source.Require = entry
		c.markRules(RulesID)
	}
	broken := false
	for id, cls := range c.loaded {
		if cls.ID == except {
			continue
		}
		c.topLevel(engine.ClassID(id), entry, func(cs *classState) {
			if cs.err != "" {
				cls.Err = errors.New(cs.err)
				broken = true
			}
		})
	}
	if broken {
		c.dropBroken()
	}
}

// Classes returns the ids of the usable classes; index i is engine.ClassID(i).
func (c *Catalog) Classes() []string { return append([]string(nil), c.ids...) }

// Class returns a usable class by its engine id.
func (c *Catalog) Class(id engine.ClassID) *Class { return c.loaded[id] }

// Limits returns the limits scripts of this catalog run under.
func (c *Catalog) Limits() Limits { return c.limits }

// ClassID returns the engine id of a usable class.
func (c *Catalog) ClassID(cls *Class) engine.ClassID { return c.byID[cls.ID] }

func (c *Catalog) classID(name string) (engine.ClassID, bool) {
	id, ok := c.byID[name]
	return id, ok
}

// Players returns the starting players, sorted by id.
func (c *Catalog) Players() []*Class {
	var out []*Class
	for _, cls := range c.loaded {
		if cls.Starting() && cls != c.rules {
			out = append(out, cls)
		}
	}
	return out
}

// Find looks a starting player up by class id, then by display name,
// ignoring case. Ids come first so that no display name can stand for
// another file; checkNames keeps display names from being ambiguous.
func (c *Catalog) Find(name string) (*Class, error) {
	cls := c.byFileName(name)
	switch {
	case cls == nil && c.rules != nil && strings.EqualFold(name, c.rules.ID):
		return nil, fmt.Errorf("%s is the game's rules, not a player", c.rules.File)
	case cls != nil && cls.Err != nil:
		return nil, fmt.Errorf("player %q cannot play: %w", name, cls.Err)
	case cls != nil && cls.Name == "":
		return nil, fmt.Errorf("%q has no name, so it is not a starting player (it can only be replicated into)", name)
	case cls != nil:
		return cls, nil
	}
	for _, cls := range c.Players() {
		if strings.EqualFold(cls.Name, name) {
			return cls, nil
		}
	}
	e := &UnknownPlayerError{Name: name}
	for _, p := range c.Players() {
		e.Known = append(e.Known, p.ID)
	}
	return nil, e
}

// byFileName returns the class whose id is name: exactly, or else ignoring
// case (the first in id order); nil when there is none.
func (c *Catalog) byFileName(name string) *Class {
	var folded *Class
	for _, cls := range c.All {
		if cls.ID == name {
			return cls
		}
		if folded == nil && strings.EqualFold(cls.ID, name) {
			folded = cls
		}
	}
	return folded
}
