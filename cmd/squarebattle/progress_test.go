package main

import (
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestRateNote: no rate until two battles and two seconds are known.
func TestRateNote(t *testing.T) {
	for _, tc := range []struct {
		done int
		took time.Duration
		want string
	}{
		{0, time.Hour, ""},
		{1, time.Millisecond, ""},
		{1, time.Minute, ""},
		{36, time.Second, ""},
		{2, 2 * time.Second, "1.0 battles/s"},
		{3, time.Minute, "3.0 battles/min"},
		{100, 10 * time.Second, "10.0 battles/s"},
	} {
		if got := rateNote(tc.done, tc.took); got != tc.want {
			t.Errorf("rateNote(%d, %v) = %q, want %q", tc.done, tc.took, got, tc.want)
		}
	}
}

// TestProgressBarStart: on a terminal, the bar is drawn (its clock
// started) when the tournament starts, not when the first battle ends (a
// bar first drawn then once claimed "1/36, 21840 battles/s"), and shows
// no rate of its own.
func TestProgressBarStart(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Cols: 100, Rows: 24}); err != nil {
		t.Fatal(err)
	}
	p := newProgress(tty, 36, false)
	if p.bar == nil {
		t.Fatal("no bar on a terminal")
	}
	if !p.bar.IsStarted() {
		t.Error("the bar's clock does not start with the tournament")
	}
	p.update(1, 36)
	buf := make([]byte, 4096)
	var out strings.Builder
	for !strings.Contains(out.String(), "/36)") {
		n, err := ptmx.Read(buf)
		if err != nil {
			t.Fatalf("%v after %q", err, out.String())
		}
		out.Write(buf[:n])
	}
	if strings.Contains(out.String(), "battles/") {
		t.Errorf("a rate at the start: %q", out.String())
	}
}
