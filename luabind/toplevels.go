package luabind

import (
	"errors"
	"fmt"
	"strings"

	"github.com/squarebattle/squarebattle/engine"
)

// TopLevel is what running one script's top level told: the player texts
// of its table, or why the script cannot be used.
type TopLevel struct {
	ID                    string
	Name, Victory, Defeat string
	Err                   string // "file:line: message"; empty when usable
}

// TopLevelReader runs the top levels of a catalog source's scripts
// elsewhere, each file alone as LoadCatalog would here, and reports what
// each returned, by class id. The SSH arena reads uploads this way: a top
// level is a stranger's code, and a hole in the sandbox it found would
// then cost a worker process, not the server. A class the reader says
// nothing about is broken. What it says is not trusted: texts are bounded
// and made safe as if read here, and names are checked here.
type TopLevelReader func(CatalogSource) ([]TopLevel, error)

// maxTopLevelErr bounds an error a TopLevelReader reports.
const maxTopLevelErr = 4096

// readTopLevelsElsewhere is readPlayerInfo with the top levels run by
// read.
func (c *Catalog) readTopLevelsElsewhere(read TopLevelReader) {
	infos, err := read(c.Source())
	byID := map[string]TopLevel{}
	for _, t := range infos {
		byID[t.ID] = t
	}
	for _, cls := range c.loaded {
		t, ok := byID[cls.ID]
		switch {
		case !ok && err != nil:
			cls.Err = fmt.Errorf("%s: its top level could not be read behind the wall: %s", cls.File, engine.SafeText(err.Error()))
		case !ok:
			cls.Err = fmt.Errorf("%s: its top level could not be read behind the wall", cls.File)
		default:
			// The texts first, as readPlayerInfo reads them before
			// checkNames may find the class broken.
			texts := [...]string{t.Name, t.Victory, t.Defeat} // playerTexts' order
			for i, f := range playerTexts(cls) {
				if !setPlayerText(cls, f, texts[i]) {
					break
				}
			}
			if t.Err != "" {
				msg := engine.SafeText(t.Err)
				if len(msg) > maxTopLevelErr {
					msg = strings.ToValidUTF8(msg[:maxTopLevelErr], "")
				}
				cls.Err = errors.New(msg)
			}
		}
	}
	c.checkNames()
	c.dropBroken()
}
