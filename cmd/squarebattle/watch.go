package main

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/squarebattle/squarebattle/config"
)

// diskScripts is the scripts folder on disk that the UI watches, or "" when
// the shipped (embedded) players are used.
func diskScripts(cfg config.Config) string {
	if cfg.Scripts != "" {
		return cfg.Scripts
	}
	if st, err := os.Stat("scripts"); err == nil && st.IsDir() {
		return "scripts"
	}
	return ""
}

// settle is how long the folder must be quiet before a reload: editors save
// in bursts (write temp, rename, chmod), and one reload per save is enough.
const settle = 150 * time.Millisecond

// watchScripts calls changed after .lua files in dir, or .lua and .yaml
// files in its game folders (dir/NAME/), are added, written, renamed or
// removed, once per burst of changes. A game folder created while watching
// is watched from then on. fsnotify is the file-change library viper
// already depends on. stop ends the watch.
func watchScripts(dir string, changed func()) (stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return nil, err
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			_ = w.Add(filepath.Join(dir, e.Name())) // a folder that cannot be watched is only not reloaded
		}
	}
	top := filepath.Clean(dir)
	done := make(chan struct{})
	go func() {
		defer close(done)
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					timer.Stop()
					return
				}
				if ev.Op&fsnotify.Create != 0 && filepath.Dir(ev.Name) == top {
					if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
						_ = w.Add(ev.Name)
						timer.Reset(settle)
					}
				}
				ext := strings.ToLower(filepath.Ext(ev.Name))
				inGame := filepath.Dir(ev.Name) != top
				if (ext == ".lua" || inGame && ext == ".yaml") && ev.Op != fsnotify.Chmod {
					timer.Reset(settle)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-timer.C:
				changed()
			}
		}
	}()
	return func() { w.Close(); <-done }, nil
}
