package ssh

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/squarebattle/squarebattle/tui"
)

// TestEnvOverrides: the process variables that would decide every
// client's terminal are named; harmless ones are not.
func TestEnvOverrides(t *testing.T) {
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, ""},
		{map[string]string{"LANG": "C.UTF-8", "COLORTERM": "truecolor", "TCELL_TRUECOLOR": "enable"}, ""},
		{map[string]string{"LANG": "C"}, "LANG=C"},
		{map[string]string{"LC_ALL": "en_US.ISO-8859-1", "LANG": "en_US.UTF-8"}, "LC_ALL=en_US.ISO-8859-1"},
		{map[string]string{"LC_CTYPE": "POSIX"}, "LC_CTYPE=POSIX"},
		{map[string]string{"NO_COLOR": "1", "TCELL_ALTSCREEN": "disable", "TCELL_TRUECOLOR": "disable"}, "NO_COLOR=1 TCELL_TRUECOLOR=disable TCELL_ALTSCREEN=disable"},
	}
	for _, tt := range tests {
		got := strings.Join(envOverrides(func(k string) string { return tt.env[k] }), " ")
		if got != tt.want {
			t.Errorf("%v: %q, want %q", tt.env, got, tt.want)
		}
	}
}

// TestServerLeavesTheEnvironment: making and running a server changes
// nothing in the process environment (its workers and the rest of the
// process share it).
func TestServerLeavesTheEnvironment(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("LANG", "C")
	before := os.Environ()
	var log bytes.Buffer
	ts := startServer(t, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(&log, nil)) })
	run(t, dial(t, ts.addr, "x", nil), "help", nil)
	if after := os.Environ(); !slices.Equal(before, after) {
		t.Errorf("the environment changed:\nbefore %v\nafter  %v", before, after)
	}
	if !strings.Contains(log.String(), "NO_COLOR=1") || !strings.Contains(log.String(), "LANG=C") {
		t.Errorf("no warning naming the variables:\n%s", log.String())
	}
}

// TestASCIIClientScreen: the screen of a client whose locale is not UTF-8
// says it shows ASCII only, so the UI picks its ASCII glyphs, and it still
// lets the UI write shared pictures beside tcell (sync.Locker); a UTF-8
// client's shows the half block. What such a client is sent is ASCII, the
// UI's own characters as the UI's stand-ins (· as -, ▀ as #).
func TestASCIIClientScreen(t *testing.T) {
	t.Setenv("LANG", "C.UTF-8")
	type seen struct{ block, braille, ascii, locker bool }
	got := make(chan seen, 1)
	ts := startServer(t, func(o *Options) {
		o.Session = func(ctx context.Context, scr tcell.Screen, so tui.SessionOptions) error {
			if err := scr.Init(); err != nil {
				return err
			}
			defer scr.Fini()
			_, locker := scr.(sync.Locker)
			got <- seen{scr.CanDisplay('▀', false), scr.CanDisplay(rune(0x28ff), false), scr.CanDisplay('a', false), locker}
			for x, r := range []rune("·▀x") {
				scr.SetContent(x, 0, r, nil, tcell.StyleDefault)
			}
			scr.Show()
			<-ctx.Done()
			return nil
		}
	})
	c := dial(t, ts.addr, "x", nil)
	for _, tt := range []struct {
		env  string
		want seen
		text string
	}{
		{"LANG=C.UTF-8", seen{true, true, true, true}, "·▀x"},
		{"LANG=C", seen{false, false, true, true}, "-#x"},
	} {
		tm := openTerminal(t, c, "xterm-256color", 40, 5, "", tt.env)
		if s := <-got; s != tt.want {
			t.Errorf("%s: the screen shows the half block %v, braille %v, ASCII %v, is a Locker %v; want %+v", tt.env, s.block, s.braille, s.ascii, s.locker, tt.want)
		}
		tm.waitFor(t, tt.text)
		tm.sess.Close()
	}
}
