package ssh

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/tui"
)

// Who may have which replay, and what of it. A featured battle's replay
// is anybody's; a private battle's is its owner's (the key that started
// it) and the admins'; a replay nobody recorded an owner for (saved
// before owners were kept) is the admins' only. Whoever gets one gets it
// through replay.Withhold: the print log and the problem messages of
// every team whose player the asker may not read in the errors pane
// (mayRead: the shipped players and the asker's own uploads) are left
// out, as they are from the live battle's errors pane.

// replayMeta is what the store keeps beside a replay: ID.meta.
type replayMeta struct {
	Featured bool   `json:"featured"`
	Owner    string `json:"owner,omitempty"` // the hall's name for the owner
	Key      string `json:"key,omitempty"`   // the owner's key fingerprint
}

const metaSuffix = ".meta"

// NoteReplay records who a replay about to be saved at file belongs to
// (tui.HallOptions.Recording): a file in the replay folder only.
func (s *Store) NoteReplay(file string, featured bool, owner, key string) error {
	dir, base := filepath.Split(file)
	id, ok := strings.CutSuffix(base, ".sbr")
	if !ok || filepath.Clean(dir) != s.ReplayDir() || checkReplayID(id) != nil {
		return fmt.Errorf("replay %q is not in %s", file, s.ReplayDir())
	}
	data, err := json.Marshal(replayMeta{Featured: featured, Owner: owner, Key: key})
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.ReplayDir(), id+metaSuffix), append(data, '\n'), 0o600)
}

// replayMeta reads what NoteReplay kept of replay id (ok false: nothing).
func (s *Store) replayMeta(id string) (replayMeta, bool) {
	var m replayMeta
	if checkReplayID(id) != nil {
		return m, false
	}
	f, err := os.Open(filepath.Join(s.ReplayDir(), id+metaSuffix))
	if err != nil {
		return m, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil || json.Unmarshal(data, &m) != nil {
		return replayMeta{}, false
	}
	return m, true
}

// mayGet says whether id may have replay rid.
func (s *Server) mayGet(rid string, id identity) bool {
	if id.admin {
		return true
	}
	m, ok := s.o.Store.replayMeta(rid)
	switch {
	case !ok:
		return false
	case m.Featured:
		return true
	}
	return id.fingerprint != "" && m.Key == id.fingerprint
}

// withheldFor is which teams of a replay id may not read the words of.
func withheldFor(id identity) func(h *replay.Header) []int {
	user := id.user
	may := mayRead(func() string { return user })
	return func(h *replay.Header) []int {
		var out []int
		for t, p := range h.Players {
			class := ""
			if p.Class >= 0 && p.Class < len(h.Classes) {
				class = h.Classes[p.Class].ID
			}
			if !may(class) {
				out = append(out, t)
			}
		}
		return out
	}
}

// replayFor opens replay rid as id may have it. One that is not id's reads
// as missing, so as not to tell which private battles exist.
func (s *Server) replayFor(rid string, id identity) (*os.File, error) {
	if s.o.LadderReplay != nil {
		// A ladder battle's replay is anybody's, withheld as any other.
		if path, ok := s.o.LadderReplay(rid); ok {
			f, err := os.Open(path)
			if err != nil {
				return nil, fmt.Errorf("%w: no replay %s (a ladder battle's replay may have been pruned; its result stays)", ErrNotFound, rid)
			}
			return f, nil
		}
	}
	path, err := s.o.Store.ReplayPath(rid)
	if err != nil {
		return nil, err
	}
	if !s.mayGet(rid, id) {
		return nil, fmt.Errorf("%w: no replay %s (ssh HOST replays lists them)", ErrNotFound, rid)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay %s cannot be read", rid)
	}
	return f, nil
}

// writeReplay writes replay rid to w as id may have it.
func (s *Server) writeReplay(w io.Writer, rid string, id identity) error {
	f, err := s.replayFor(rid, id)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = replay.Withhold(w, f, rid+".sbr", withheldFor(id))
	return err
}

// openReplayFor reads replay rid as id may have it, for the screens.
func (s *Server) openReplayFor(rid string, id identity) (*replay.Replay, string, error) {
	f, err := s.replayFor(rid, id)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	pr, pw := io.Pipe()
	go func() {
		_, err := replay.Withhold(pw, f, rid+".sbr", withheldFor(id))
		pw.CloseWithError(err)
	}()
	r, err := replay.Read(pr, rid+".sbr")
	pr.CloseWithError(io.EOF) // the writer stops if the reader gave up early
	if err != nil {
		return nil, "", fmt.Errorf("replay %s cannot be read", rid)
	}
	return r, rid + ".sbr", nil
}

// replaysOf lists the replays id may have, newest first, at most n.
func (s *Server) replaysOf(id identity, n int) []ReplayInfo {
	var out []ReplayInfo
	for _, r := range s.o.Store.Replays(1 << 30) {
		if len(out) == n {
			break
		}
		if s.mayGet(r.ID, id) {
			out = append(out, r)
		}
	}
	return out
}

// replaysFor is the menu's list of id's replays.
func (s *Server) replaysFor(id identity) func() []tui.ReplayInfo {
	return func() []tui.ReplayInfo {
		var out []tui.ReplayInfo
		for _, r := range s.replaysOf(id, 50) {
			rid := r.ID
			sum := s.summary(rid)
			out = append(out, tui.ReplayInfo{ID: rid, Title: strings.Join(sum.Players, " vs "), When: r.Saved, Summary: sum, Open: func() (*replay.Replay, error) {
				rp, _, err := s.openReplayFor(rid, id)
				return rp, err
			}})
		}
		return out
	}
}
