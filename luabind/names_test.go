package luabind

import (
	"strings"
	"testing"
)

// TestNamesCannotImpersonate: ids are matched before display names; a
// display name equal to another file's id, or to another player's name, is
// a load problem naming both files.
func TestNamesCannotImpersonate(t *testing.T) {
	player := func(name string) string { return `return { name = "` + name + `", run = function() end }` }
	cat := catalogOf(t, map[string]string{
		"aaa.lua":      player("wanderer"), // impersonates wanderer.lua
		"bbb.lua":      player("HELPER"),   // impersonates a class without a name
		"helper.lua":   `return { run = function() end }`,
		"wanderer.lua": player("Wanderer"), // its own id: fine
		"twin1.lua":    player("Twin"),
		"twin2.lua":    player("twin"), // same name as twin1, later in id order
		"twin3.lua":    player("Twin"),
		"self.lua":     player("SELF"),
		"ccc.lua":      player("Explorer"), // another name, no file of that id
		"ddd.lua":      player("Wаnderer"), // Cyrillic a
		"eee.lua":      player("Tw\u200bin"),
		"zfw.lua":      player("Ｔｗｉｎ"), // full width
		"zdigit.lua":   player("Se1f"),
		"hhh.lua":      player("He\u2060lper"), // word joiner
	}, DefaultLimits())
	want := map[string]string{
		"aaa":    `t/aaa.lua: name "wanderer" reads as the id of t/wanderer.lua`,
		"bbb":    `t/bbb.lua: name "HELPER" reads as the id of t/helper.lua`,
		"twin2":  `t/twin2.lua: name "twin" reads as the name of t/twin1.lua`,
		"twin3":  `t/twin3.lua: name "Twin" reads as the name of t/twin1.lua`,
		"ddd":    `t/ddd.lua: name "Wаnderer" reads as the id of t/wanderer.lua`,
		"eee":    `t/eee.lua: name "Tw\u200bin": character 3 is U+200B ZERO WIDTH SPACE, which does not show`,
		"zfw":    `t/zfw.lua: name "Ｔｗｉｎ" reads as the name of t/twin1.lua`,
		"zdigit": `t/zdigit.lua: name "Se1f" reads as the id of t/self.lua`,
		"hhh":    `t/hhh.lua: name "He\u2060lper": character 3 is U+2060 WORD JOINER`,
	}
	for _, cls := range cat.All {
		w, broken := want[cls.ID]
		switch {
		case broken && (cls.Err == nil || !strings.Contains(cls.Err.Error(), w)):
			t.Errorf("%s: error %v, want one containing %q", cls.ID, cls.Err, w)
		case !broken && cls.Err != nil:
			t.Errorf("%s: unexpected error %v", cls.ID, cls.Err)
		}
	}
	for _, c := range []struct{ ask, id string }{
		{"wanderer", "wanderer"}, {"WANDERER", "wanderer"}, {"twin", "twin1"}, {"Twin", "twin1"},
		{"twin2", ""}, {"aaa", ""}, {"self", "self"}, {"explorer", "ccc"}, {"helper", ""},
	} {
		p, err := cat.Find(c.ask)
		switch {
		case c.id == "" && err == nil:
			t.Errorf("Find(%q) = %s, want an error", c.ask, p.ID)
		case c.id != "" && (err != nil || p.ID != c.id):
			t.Errorf("Find(%q) = %v, %v; want %s", c.ask, p, err, c.id)
		}
	}
}

// TestIDsBeforeNames: an id is matched before any display name, and an
// exact id before one that differs only in case.
func TestIDsBeforeNames(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"Zed.lua":   `return { name = "Upper", run = function() end }`,
		"zed.lua":   `return { name = "Lower", run = function() end }`,
		"alpha.lua": `return { name = "Alpha", run = function() end }`,
	}, DefaultLimits())
	for ask, id := range map[string]string{"Zed": "Zed", "zed": "zed", "ZED": "Zed", "lower": "zed", "alpha": "alpha"} {
		if p, err := cat.Find(ask); err != nil || p.ID != id {
			t.Errorf("Find(%q) = %v, %v; want %s", ask, p, err, id)
		}
	}
}

// TestPlayerTextSafe: names and speeches are made safe to print when they
// are read, and a file whose name needs escaping cannot be a class.
func TestPlayerTextSafe(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"loud.lua":        `return { name = "\27[2J\27]0;title\7X\r\nteam 0 won", victory = "\194\155 31m\226\128\174", defeat = "a\tb\127\255", run = function() end }`,
		"bad\x1b[31m.lua": `return { name = "Bad", run = function() end }`,
	}, DefaultLimits())
	p, err := cat.Find("loud")
	if err != nil {
		t.Fatal(err)
	}
	if want := `\x1b[2J\x1b]0;title\x07X\r\nteam 0 won`; p.Name != want {
		t.Errorf("name %q, want %q", p.Name, want)
	}
	if want := `\u009b 31m\u202e`; p.Victory != want {
		t.Errorf("victory %q, want %q", p.Victory, want)
	}
	if want := `a\tb\x7f\xff`; p.Defeat != want {
		t.Errorf("defeat %q, want %q", p.Defeat, want)
	}
	for _, cls := range cat.All {
		if strings.HasPrefix(cls.ID, "bad") {
			if cls.Err == nil || !strings.Contains(cls.Err.Error(), `t/bad\x1b[31m.lua: the file name holds control characters`) {
				t.Errorf("bad file: %v", cls.Err)
			}
		}
	}
}

// TestPlayerTextBounded: a name or a speech too long for the screens it
// reaches is a load problem naming the file and the key, not a wall of text
// in every lobby.
func TestPlayerTextBounded(t *testing.T) {
	long := strings.Repeat("x", MaxNameBytes+1)
	speech := strings.Repeat("y", MaxSpeechBytes+1)
	cat := catalogOf(t, map[string]string{
		"longname.lua":   `return { name = "` + long + `", run = function() end }`,
		"longspeech.lua": `return { name = "Talker", defeat = "` + speech + `", run = function() end }`,
		"fits.lua":       `return { name = "` + long[:MaxNameBytes] + `", victory = "` + speech[:MaxSpeechBytes] + `", run = function() end }`,
	}, DefaultLimits())
	want := map[string]string{
		"longname":   "t/longname.lua: name is 65 bytes long; at most 64",
		"longspeech": "t/longspeech.lua: defeat is 281 bytes long; at most 280",
		"fits":       "",
	}
	for _, cls := range cat.All {
		w, ok := want[cls.ID]
		if !ok {
			continue
		}
		got := ""
		if cls.Err != nil {
			got = cls.Err.Error()
		}
		if got != w {
			t.Errorf("%s: problem %q, want %q", cls.ID, got, w)
		}
		delete(want, cls.ID)
	}
	if len(want) > 0 {
		t.Errorf("classes not listed: %v", want)
	}
}
