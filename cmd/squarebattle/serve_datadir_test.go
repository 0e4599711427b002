//go:build unix

package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/flock"
)

// dirState is what a folder tree holds: each path's type, mode and bytes.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		v := info.Mode().String()
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x %s", sha256.Sum256(b), info.ModTime())
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeFiles writes each file (a path in dir) with its name as content.
func writeFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestServeDataDirLock: a serve on a data dir another one holds stops at
// once, exit 2, with one line naming the dir and the holder's pid, and
// touches nothing in the dir, not even the holder's replays being written;
// the holder goes on serving; once it stops the dir is free again.
func TestServeDataDirLock(t *testing.T) {
	holders := []struct {
		name string
		// hold takes the dir of cfg; still checks the holder still works
		// (nil: nothing to check); release gives the dir up.
		hold  func(t *testing.T, cfg config.Config) (still, release func(t *testing.T))
		quiet bool // the holder writes nothing in the dir meanwhile
	}{
		{"a serve arena", func(t *testing.T, cfg config.Config) (func(t *testing.T), func(t *testing.T)) {
			addr, a := startLadderArena(t, cfg)
			still := func(t *testing.T) {
				if out, errOut, st := sshRun(t, sshClient(t, addr, "alice"), "players", nil); st != 0 || !strings.Contains(out, "explorer") {
					t.Errorf("the first arena after the refusal: status %d\n%s%s", st, out, errOut)
				}
			}
			return still, func(t *testing.T) { stopArena(t, a) }
		}, false},
		{"a flock on serve.lock (a backup script)", func(t *testing.T, cfg config.Config) (func(t *testing.T), func(t *testing.T)) {
			os.MkdirAll(cfg.Serve.DataDir, 0o700)
			l, err := flock.TryLock(filepath.Join(cfg.Serve.DataDir, dataDirLock))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { l.Release() })
			return nil, func(t *testing.T) { l.Release() }
		}, true},
	}
	for _, h := range holders {
		t.Run(h.name, func(t *testing.T) {
			cfg := serveConfig(t)
			dir := cfg.Serve.DataDir
			still, release := h.hold(t, cfg)
			// The holder's replays in flight.
			inFlight := []string{"replays/.20260101-120000-ab.sbr.1.partial", "ladder/replays/.L7.sbr.2.partial"}
			writeFiles(t, dir, inFlight...)
			before := dirState(t, dir)
			code, out, errOut := program(t, t.TempDir(), []string{"SQUAREBATTLE_SERVE_DATA_DIR=" + dir}, "serve", "--listen", "127.0.0.1:0")
			want := fmt.Sprintf("squarebattle: serve.data_dir: %s is in use by another squarebattle serve (%s: held by process %d)\n",
				dir, filepath.Join(dir, dataDirLock), os.Getpid())
			if code != exitBadInput || out != "" || errOut != want {
				t.Errorf("a second serve: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, want)
			}
			for _, f := range inFlight {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("the holder's %s: %v", f, err)
				}
			}
			if after := dirState(t, dir); h.quiet && fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the refused serve changed the dir:\nbefore %v\nafter  %v", before, after)
			}
			if still != nil {
				still(t)
			}
			release(t)
			a, err := newArena(cfg, discardLog(), nil)
			if err != nil {
				t.Fatalf("once the holder let go: %v", err)
			}
			a.close()
		})
	}
}

// TestServeRemovesPartials: an arena opening its data dir removes the
// replays a killed serve left half written in its replay folders, and
// logs how many and their bytes; a link or a folder named like one, and
// the same name anywhere else, stay.
func TestServeRemovesPartials(t *testing.T) {
	cfg := serveConfig(t)
	dir := cfg.Serve.DataDir
	outside := filepath.Join(t.TempDir(), ".L9.sbr.9.partial")
	writeFiles(t, filepath.Dir(outside), filepath.Base(outside))
	entries := []struct {
		name string
		kind string // "file", "link" (to a file outside the data dir), "dir"
		gone bool
	}{
		{"replays/.20260101-120000-ab.sbr.1.partial", "file", true},
		{"replays/.20260101-120000-ab.sbr.json.2.partial", "file", true},
		{"ladder/replays/.L3.sbr.3.partial", "file", true},
		{"ladder/replays/L2.sbr", "file", false},
		{"ladder/replays/.L4.sbr.4.partial", "link", false},
		{"replays/.L5.sbr.5.partial", "dir", false},
		{"players/alice/.x.lua.6.partial", "file", false}, // not a replay folder
		{".users.json.7.partial", "file", false},
	}
	var files, size int
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		os.MkdirAll(filepath.Dir(p), 0o700)
		var err error
		switch e.kind {
		case "file":
			writeFiles(t, dir, e.name)
		case "link":
			err = os.Symlink(outside, p)
		case "dir":
			err = os.Mkdir(p, 0o700)
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.gone {
			files++
			size += len(e.name)
		}
	}
	logs := startAndStop(t, cfg)
	for _, e := range entries {
		checkGone(t, filepath.Join(dir, e.name), e.kind, e.gone)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("outside the data dir: %v", err)
	}
	want := "event=partials_removed files=" + strconv.Itoa(files) + " bytes=" + strconv.Itoa(size)
	if !strings.Contains(logs, want) {
		t.Errorf("the log lacks %q:\n%s", want, logs)
	}
}

// TestServeRemovesBotLeftovers: a bot record's temporary file, left by a
// serve killed while it wrote the record, is removed at the next start
// (it was read as a broken record at every start, for good); a record,
// and a folder or link named like a leftover, stay.
func TestServeRemovesBotLeftovers(t *testing.T) {
	cfg := serveConfig(t)
	dir := filepath.Join(cfg.Serve.DataDir, "bots")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	record := `{"user":"alice","name":"b"}`
	entries := []struct {
		name, kind string // kind: "file", "record", "dir", "link"
		gone       bool
	}{
		{".alice.b.json.123.tmp", "file", true},
		{".bob.c.json.9.tmp", "file", true},
		{".x.tmp", "dir", false},
		{".y.json.1.tmp", "link", false},
		{"alice.b.json", "record", false},
	}
	outside := filepath.Join(t.TempDir(), "target")
	writeFiles(t, filepath.Dir(outside), filepath.Base(outside))
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		var err error
		switch e.kind {
		case "file":
			err = os.WriteFile(p, []byte("{"), 0o600)
		case "record":
			err = os.WriteFile(p, []byte(record), 0o600)
		case "dir":
			err = os.Mkdir(p, 0o700)
		case "link":
			err = os.Symlink(outside, p)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	logs := startAndStop(t, cfg)
	for _, e := range entries {
		checkGone(t, filepath.Join(dir, e.name), e.kind, e.gone)
	}
	if want := "event=bot_leftovers_removed files=2"; !strings.Contains(logs, want) {
		t.Errorf("the log lacks %q:\n%s", want, logs)
	}
}

// startAndStop opens the arena of cfg and closes it, and returns its log.
func startAndStop(t *testing.T, cfg config.Config) string {
	t.Helper()
	var logs syncLog
	a, err := newArena(cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.close()
	return logs.String()
}

// checkGone says whether the file or link p (of kind) is gone as wanted.
func checkGone(t *testing.T, p, kind string, want bool) {
	t.Helper()
	_, err := os.Lstat(p)
	if gone := os.IsNotExist(err); gone != want {
		t.Errorf("%s (%s): gone %v, want %v", p, kind, gone, want)
	}
}
