package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// The uploaded players of `serve` sit beside the shipped ones in one
// catalog, as user.name.lua (tui/ssh's Store keeps them).

// scriptFiles reads the top-level .lua files of the scripts folder and
// lays the uploads over them, skipping the upload with id skip.
func (a *serveArena) scriptFiles(skip string) (map[string][]byte, error) {
	base, _, err := scriptsFS(a.cfg)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	entries, err := fs.ReadDir(base, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".lua") {
			continue
		}
		data, err := fs.ReadFile(base, e.Name())
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	ups, err := a.store.Sources()
	if err != nil {
		return nil, err
	}
	for name, data := range ups {
		if _, shipped := files[name]; shipped || name == skip+".lua" {
			continue // a shipped script keeps its id
		}
		files[name] = data
	}
	return files, nil
}

// loadFiles compiles files into a catalog, as LoadCatalog does a folder.
// Behind the wall (isolation.mode process) the scripts' top levels, an
// uploader's code, run in a worker process, not in the server.
func (a *serveArena) loadFiles(files map[string][]byte) (*luabind.Catalog, error) {
	m := fstest.MapFS{}
	for name, data := range files {
		m[name] = &fstest.MapFile{Data: data, Mode: 0o444}
	}
	read, err := topLevelsOf(a.cfg)
	if err != nil {
		return nil, err
	}
	return luabind.LoadCatalog(luabind.CatalogOptions{FS: m, Dir: "scripts", Limits: battle.Limits(a.cfg), TopLevels: read})
}

// catalog builds the catalog of the shipped and uploaded players.
func (a *serveArena) catalog() (*luabind.Catalog, error) {
	files, err := a.scriptFiles("")
	if err != nil {
		return nil, err
	}
	return a.loadFiles(files)
}

// reload rebuilds the catalog after an upload or a removal and tells the
// hall, whose sessions show the new players at once.
func (a *serveArena) reload() {
	cat, err := a.catalog()
	if err != nil {
		a.log.Error("reloading players", "event", "error", "reason", err.Error())
		return
	}
	a.src.mu.Lock()
	a.src.cat = cat
	a.src.mu.Unlock()
	if a.hall != nil {
		a.hall.Reload()
	}
	if a.ladder != nil {
		if err := a.ladder.sync(context.Background()); err != nil {
			a.log.Error("ladder: entering the players", "event", "error", "reason", err.Error())
		}
	}
}

// players lists the catalog for `ssh HOST players`.
func (a *serveArena) players() []string {
	var out []string
	for _, e := range entriesOf(a.src.catalog()) {
		switch {
		case e.Problem != "":
			out = append(out, fmt.Sprintf("%-32s broken: %s", e.ID, safe(firstLine(e.Problem))))
		case e.Name == "":
			out = append(out, fmt.Sprintf("%-32s (replicated into only)", e.ID))
		default:
			out = append(out, fmt.Sprintf("%-32s %s", e.ID, safe(e.Name)))
		}
	}
	for _, e := range a.bots.entries() {
		state := "remote bot, connected"
		if e.Problem != "" {
			state = "remote bot, busy in a battle"
		}
		out = append(out, fmt.Sprintf("%-32s %s (%s)", e.ID, safe(e.Name), state))
	}
	return out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// checkEnv is added to the checker's environment (tests make their
// binary act as the program with it).
var checkEnv []string

// checkTimeout bounds one submit's check, a 300-round trial battle.
const checkTimeout = 2 * time.Minute

// check runs `squarebattle check` on an upload in a child process (the
// same program) beside the other players, in a scratch folder, so that a
// script that crashes or exhausts the checker costs only that process;
// the trial battle's teams run in worker processes as the configuration
// says (serve insists on isolation.mode process). Then it makes sure the
// new player does not take the name of one already playing.
func (a *serveArena) check(ctx context.Context, id string, src []byte, stdout, stderr io.Writer) int {
	files, err := a.scriptFiles(id)
	if err != nil {
		fmt.Fprintf(stderr, "squarebattle: the server cannot read its players\n")
		a.log.Error("check", "event", "error", "reason", err.Error())
		return exitFailure
	}
	files[id+".lua"] = src
	dir, err := os.MkdirTemp("", "squarebattle-submit-")
	if err != nil {
		return exitFailure
	}
	defer os.RemoveAll(dir)
	cfg := a.cfg
	cfg.Scripts = "."
	if err := os.WriteFile(filepath.Join(dir, "squarebattle.yaml"), cfg.YAML(), 0o600); err != nil {
		return exitFailure
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			return exitFailure
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return exitFailure
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "check", id+".lua")
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + dir, "TMPDIR=" + os.TempDir(), fmt.Sprintf("GOMEMLIMIT=%dMiB", cfg.Isolation.MemoryMiB)}, checkEnv...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &capped{w: &out, n: 64 << 10}, &capped{w: &errOut, n: 64 << 10}
	err = cmd.Run()
	stdout.Write(out.Bytes())
	stderr.Write(errOut.Bytes())
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "squarebattle: the check took longer than %s\n", checkTimeout)
		return exitFailure
	case errors.As(err, &ee) && ee.ExitCode() == exitBadInput:
		return exitBadInput
	case err != nil:
		if errOut.Len() == 0 {
			fmt.Fprintf(stderr, "squarebattle: the check failed: %v\n", err)
		}
		return exitFailure
	}
	return a.checkNames(id, files, stderr)
}

// admit checks the names again right before an upload is stored, against
// the players stored meanwhile (tui/ssh's Options.Admit: no other upload is
// admitted while it runs).
func (a *serveArena) admit(id string, src []byte, w io.Writer) int {
	files, err := a.scriptFiles(id)
	if err != nil {
		fmt.Fprintf(w, "squarebattle: the server cannot read its players\n")
		return exitFailure
	}
	files[id+".lua"] = src
	return a.checkNames(id, files, w)
}

// checkNames refuses an upload whose player name would break a player
// that plays now (the catalog breaks the later of two equal names, and
// the later may be the one already there).
func (a *serveArena) checkNames(id string, files map[string][]byte, stderr io.Writer) int {
	cat, err := a.loadFiles(files)
	if err != nil {
		return exitFailure
	}
	now := a.src.catalog()
	name := ""
	for _, cls := range cat.All {
		if cls.ID == id {
			name = cls.Name
			if cls.Err != nil {
				// Broken beside the players as they are now (a name
				// taken since its check began).
				fmt.Fprintf(stderr, "squarebattle: %s\n", safe(firstLine(cls.Err.Error())))
				return exitBadInput
			}
		}
	}
	for _, cls := range cat.All {
		if cls.ID == id || cls.Err == nil {
			continue
		}
		if before, err := now.Find(cls.ID); err == nil && before.ID == cls.ID {
			fmt.Fprintf(stderr, "squarebattle: %s's name %q is taken by %s, which plays already: pick another name\n", id, safe(name), cls.ID)
			return exitBadInput
		}
	}
	return exitOK
}

// capped keeps the first n bytes written to it.
type capped struct {
	w io.Writer
	n int
}

func (c *capped) Write(p []byte) (int, error) {
	if c.n > 0 {
		k := min(len(p), c.n)
		c.w.Write(p[:k])
		c.n -= k
	}
	return len(p), nil
}
