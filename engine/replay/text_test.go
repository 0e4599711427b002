package replay

import (
	"bytes"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestHostileReplayText: a replay file crafted by hand carries names,
// speeches, titles, problems and a reason full of escape sequences; all of
// it reads back as text safe to print.
func TestHostileReplayText(t *testing.T) {
	data, _ := record(t, 7, 10, 4, 120)
	text := string(plain(t, data))
	const evil = `\u001b[2J\u001b]0;owned\u0007\r\nteam 1 W wins\u009b\u202e\u007f`
	for _, r := range []struct{ old, new string }{
		{`"name":"W"`, `"name":"` + evil + `","victory":"` + evil + `","defeat":"` + evil + `"`},
		{`"program":"test"`, `"program":"` + evil + `","columns":["` + evil + `"]`},
		{`"id":"w"`, `"id":"w` + evil + `"`},
		{`w.lua:3: boom`, evil},
		{`"reason":"test"`, `"reason":"` + evil + `"`},
	} {
		if !strings.Contains(text, r.old) {
			t.Fatalf("the recording has no %s", r.old)
		}
		text = strings.ReplaceAll(text, r.old, r.new)
	}
	// Columns belong to rule mods; this replay stays a SquareBattle one.
	text = strings.Replace(text, `,"columns":["`+evil+`"]`, "", 1)
	rep, err := Read(bytes.NewReader([]byte(text)), "evil")
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	h := rep.Header
	shown = append(shown, h.Program, h.Classes[0].ID)
	for _, p := range h.Players {
		shown = append(shown, p.Name, p.Victory, p.Defeat)
	}
	if rep.Result == nil {
		t.Fatalf("no result: %v", rep.Damage)
	}
	shown = append(shown, rep.Result.Reason)
	problems := 0
	for r := rep.Timeline.First(); r <= rep.Timeline.Last(); r++ {
		if l, ok := rep.Timeline.Log(r); ok {
			for _, p := range l.Problems {
				shown = append(shown, p.Message)
				problems++
			}
		}
	}
	if problems == 0 {
		t.Fatal("the recording has no problems")
	}
	for _, s := range shown {
		if !engine.IsSafeText(s) || !strings.Contains(s, `\x1b[2J\x1b]0;owned\x07\r\nteam 1 W wins\u009b\u202e\x7f`) {
			t.Errorf("shown as %q", s)
		}
	}
}
