package luabind

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/squarebattle/squarebattle/engine"
)

// hostileText holds everything a terminal would obey: CSI, OSC, CR LF, C1,
// a bidi override, DEL and a byte that is not UTF-8.
const hostileText = `\27[2J\27]0;owned\7\r\nteam 0 won\194\155\226\128\174\127\255`

// TestScriptTextSafe: what a script raises or prints reaches problems and
// the team's log escaped.
func TestScriptTextSafe(t *testing.T) {
	cat := catalogOf(t, map[string]string{
		"loud.lua": `return { name = "Loud", run = function()
		  print("` + hostileText + `", "second")
		  error("` + strings.Replace(hostileText, `\n`, "", 1) + `")
		end }`,
		"idle.lua": idle,
	}, DefaultLimits())
	b, teams := battle(t, cat, []string{"loud", "idle"}, engine.Options{Size: 6, Wrap: true, Rounds: 3, Seed: 1, Workers: 1})
	res := b.Run()
	var texts []string
	for _, p := range append(res.FirstProblems, res.Problems...) {
		texts = append(texts, p.Message)
	}
	if len(texts) == 0 || !strings.Contains(texts[0], `\x1b[2J\x1b]0;owned\x07\rteam 0 won\u009b\u202e\x7f\xff`) {
		t.Errorf("problems %q", texts)
	}
	log := teams[0].Log()
	if len(log) == 0 || !strings.HasSuffix(log[0], "\\xff\tsecond") {
		t.Errorf("log %q", log)
	}
	for _, s := range append(texts, log...) {
		if strings.TrimFunc(s, func(r rune) bool {
			return r >= 0x20 && r != 0x7f && !(r >= 0x80 && r <= 0x9f) && r != 0x202e && r != 0xfffd || r == '\t'
		}) != "" {
			t.Errorf("unsafe text %q", s)
		}
	}
}

// TestRulesTextSafe: a rule mod's title is escaped; column, option and
// entry names that would need escaping are refused, and so are more
// columns than a replay or a results file holds.
func TestRulesTextSafe(t *testing.T) {
	for _, c := range []struct{ decl, want string }{
		{`name = "Game\27[31m", columns = { "score" }`, ""},
		{`columns = { "sco\27[2Jre" }`, "columns[1] must be a name of printable characters"},
		{`options = { ["a\rb"] = 1 }`, "options: names must be strings of printable characters"},
		{`entry = "ru\27n"`, "entry must be a name of printable characters"},
		{`name = "Game\27[31m", columns = (function() local c = {} for i = 1, 64 do c[i] = "c" .. i end return c end)()`, ""},
		{`columns = (function() local c = {} for i = 1, 65 do c[i] = "c" .. i end return c end)()`, "columns: 65 names, at most 64"},
		{`columns = (function() local c = {} for i = 1, 1000 do c[i] = 1 end return c end)()`, "columns: 1000 names, at most 64"},
	} {
		fsys := fstest.MapFS{"rules.lua": &fstest.MapFile{Data: []byte(`return { ` + c.decl + `, turns = function() end, resolve = function() end }`)}}
		g, err := LoadGame(fsys, "g", DefaultLimits())
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.decl, err)
		case c.want == "" && g.Info.Name != `Game\x1b[31m`:
			t.Errorf("%s: name %q", c.decl, g.Info.Name)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.decl, err, c.want)
		}
	}
}
