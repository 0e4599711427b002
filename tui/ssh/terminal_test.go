package ssh

import (
	"bytes"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"
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
