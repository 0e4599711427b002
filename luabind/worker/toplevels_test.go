package worker

import (
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/worker/testhooks"
	"github.com/squarebattle/squarebattle/scripts"
)

// TestTopLevelsBehindWall: a folder read with its top levels in worker
// processes lists the same classes, names, speeches and problems as one
// read in this process; a top level that kills its worker (every test
// hook, called at the top level) breaks its own class only, with a
// message naming its file.
func TestTopLevelsBehindWall(t *testing.T) {
	explorer, err := scripts.FS.ReadFile("explorer.lua")
	if err != nil {
		t.Fatal(err)
	}
	honest := map[string]string{
		"explorer.lua": string(explorer),
		"loop.lua":     "while true do end\nreturn { name = 'Loop', run = function() end }",
		"fake.lua":     "return { name = 'Explorer', run = function() end }",
		"norun.lua":    "return { name = 'No Run' }",
		"long.lua":     "return { name = string.rep('n', 100), run = function() end }",
		"speech.lua":   "return { name = 'Speaker', victory = ' won ', defeat = 'lost', run = function() end }",
	}
	want := catalogOf(t, honest)
	short := testPool(t, Options{Size: 1, MemoryMiB: 256, CallTimeout: 700 * time.Millisecond, PerInstruction: time.Nanosecond})
	for _, c := range testhooks.Cases {
		t.Run(c.Hook, func(t *testing.T) {
			if why := c.SkipReason(AddressSpaceLimited()); why != "" {
				t.Skip(why)
			}
			files := map[string]string{"hostile.lua": c.Hook + "()\nreturn { name = 'Hostile', run = function() end }"}
			for name, src := range honest {
				files[name] = src
			}
			got := catalogWith(t, files, short.ReadTopLevels)
			for _, w := range want.All {
				g, err := got.Find(w.ID)
				if err != nil {
					if w.Err == nil {
						t.Errorf("%s: %v", w.ID, err)
					}
					continue
				}
				if g.Name != w.Name || g.Victory != w.Victory || g.Defeat != w.Defeat || (g.Err == nil) != (w.Err == nil) ||
					(g.Err != nil && g.Err.Error() != w.Err.Error()) {
					t.Errorf("%s behind the wall: %q %q %q %v; in this process: %q %q %q %v", w.ID,
						g.Name, g.Victory, g.Defeat, g.Err, w.Name, w.Victory, w.Defeat, w.Err)
				}
			}
			if got, want := strings.Join(got.Classes(), " "), strings.Join(want.Classes(), " "); got != want {
				t.Errorf("usable classes %q, want %q", got, want)
			}
			var h *luabind.Class
			for _, cls := range got.All {
				if cls.ID == "hostile" {
					h = cls
				}
			}
			if h == nil || h.Err == nil || !strings.HasPrefix(h.Err.Error(), "scripts/hostile.lua: its top level ") {
				t.Fatalf("hostile: %+v, want it broken with a message naming its file", h)
			}
			t.Logf("shown as: %s", h.Err)
		})
	}
}

// catalogWith is catalogOf with the top levels read by read.
func catalogWith(t *testing.T, files map[string]string, read luabind.TopLevelReader) *luabind.Catalog {
	t.Helper()
	fsys := mapFS(files)
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: fsys, Dir: "scripts", TopLevels: read})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
