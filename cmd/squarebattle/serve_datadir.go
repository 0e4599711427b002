package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/flock"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// dataDirLock is the file in serve's data dir whose flock(2) says a serve
// owns the dir (engine/flock); it holds that serve's pid.
const dataDirLock = "serve.lock"

// lockDataDir finds the data dir of cfg (serve.data_dir, else the user's),
// makes it if need be and takes its lock for as long as the process lives
// or until Release, before anything in it is read or written: two serves
// on one dir would both rewrite users.json, play the same ladder battles
// and prune the same replays. A dir another serve holds is bad input, and
// nothing in it is touched. dir is absolute.
func lockDataDir(cfg config.Config) (dir string, l *flock.Lock, err error) {
	dir = cfg.Serve.DataDir
	if dir == "" {
		if dir, err = userDataDir(); err != nil {
			return "", nil, err
		}
	}
	if dir, err = filepath.Abs(dir); err == nil {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		return "", nil, bad(fmt.Errorf("serve.data_dir: %w", err))
	}
	l, err = flock.TryLock(filepath.Join(dir, dataDirLock))
	if errors.Is(err, flock.ErrHeld) {
		return "", nil, bad(fmt.Errorf("serve.data_dir: %s is in use by another squarebattle serve (%w)", dir, err))
	}
	if err != nil {
		return "", nil, bad(fmt.Errorf("serve.data_dir: %w", err))
	}
	return dir, l, nil
}

// ladderReplayDir is where the ladder keeps its replays in the data dir.
func ladderReplayDir(dataDir string) string { return filepath.Join(dataDir, "ladder", "replays") }

// botDir is where serve keeps its bot records in the data dir.
func botDir(dataDir string) string { return filepath.Join(dataDir, "bots") }

// leftovers is one kind of temporary file that writes a killed serve
// interrupted leave in its data dir: named like glob, in the folders dirs,
// logged as what and with event when some are removed.
type leftovers struct {
	what, event, glob string
	dirs              []string
}

// removeLeftovers removes from the data dir dataDir each kind of
// leftover (replay.RemoveTemporary): half-written replays, whose battles
// are played again and which the ladder's disk budget does not see, and
// half-written bot records, which every start read as broken. Only under
// the data dir's lock, which no live process but this one holds.
func removeLeftovers(log *slog.Logger, dataDir string, kinds ...leftovers) {
	root, err := os.OpenRoot(dataDir)
	if err != nil {
		log.Error("leftovers of interrupted writes", "event", "error", "reason", err.Error())
		return
	}
	defer root.Close()
	for _, k := range kinds {
		var sum replay.Partials
		for _, d := range k.dirs {
			rel, err := filepath.Rel(dataDir, d)
			if err == nil {
				var p replay.Partials
				p, err = replay.RemoveTemporary(root, rel, k.glob)
				sum.Files += p.Files
				sum.Bytes += p.Bytes
			}
			if err != nil {
				log.Error(k.what, "event", "error", "reason", err.Error())
			}
		}
		if sum.Files > 0 {
			log.Info(k.what+" of a stopped serve removed", "event", k.event, "files", sum.Files, "bytes", sum.Bytes)
		}
	}
}
