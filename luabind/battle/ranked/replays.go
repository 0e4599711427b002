package ranked

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// Replays keeps the ladder's replays as files in one folder, named by
// battle (L123.sbr), within a disk budget: once the files hold more than
// Budget bytes the oldest go first, down to seven eighths of it, except
// the replays of each player's Keep most recent battles and of battles not
// yet settled, which stay whatever the budget. A pruned battle keeps its
// result; its Replay is emptied in the ladder.
type Replays struct {
	dir    string
	budget int64
	keep   int

	mu    sync.Mutex // guards total and limit, and serialises pruning
	total int64
	// limit is the total past which the next replay added prunes: the
	// budget, or more when the replays that must stay hold more.
	limit int64
}

// OpenReplays opens (making it if need be) the folder dir.
func OpenReplays(dir string, budget int64, keep int) (*Replays, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	r := &Replays{dir: dir, budget: budget, keep: keep, limit: budget}
	files, err := r.files()
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		r.total += f.size
	}
	return r, nil
}

// Dir is the replays' folder.
func (r *Replays) Dir() string { return r.dir }

// ReplayID is the name a ladder battle's replay goes by: "L" and the
// battle's number.
func ReplayID(id ladder.BattleID) string { return "L" + strconv.FormatInt(int64(id), 10) }

// ParseReplayID reads a ReplayID back; ok is false for anything else.
func ParseReplayID(s string) (ladder.BattleID, bool) {
	rest, ok := strings.CutPrefix(s, "L")
	if !ok || rest == "" || len(rest) > 18 || rest[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return ladder.BattleID(n), true
}

// Path is where battle id's replay is kept.
func (r *Replays) Path(id ladder.BattleID) string {
	return filepath.Join(r.dir, ReplayID(id)+".sbr")
}

// Total is how many bytes the replays hold.
func (r *Replays) Total() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.total
}

type replayFile struct {
	id   ladder.BattleID
	size int64
}

// files lists the replay files, oldest battle first.
func (r *Replays) files() ([]replayFile, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, err
	}
	var out []replayFile
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".sbr")
		id, ok2 := ParseReplayID(name)
		if !ok || !ok2 || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // gone meanwhile
		}
		out = append(out, replayFile{id, info.Size()})
	}
	slices.SortFunc(out, func(a, b replayFile) int { return int(a.id - b.id) })
	return out, nil
}

// Added counts the replay of battle id, just written, and prunes when the
// budget is passed. It returns how many replays were pruned.
func (r *Replays) Added(ctx context.Context, l *ladder.Ladder, id ladder.BattleID) (int, error) {
	info, err := os.Stat(r.Path(id))
	if err != nil {
		return 0, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.total += info.Size()
	if r.total <= r.limit {
		return 0, nil
	}
	return r.prune(ctx, l)
}

// prune deletes the oldest replays nobody's recent battles need until the
// total is an eighth of the budget below it, so that the next pruning,
// which asks the ladder for every player's recent battles, comes after
// that much more rather than after every battle. When the replays that
// must stay hold more than the budget, the next pruning waits for an
// eighth of the budget past what they hold. r.mu is held.
func (r *Replays) prune(ctx context.Context, l *ladder.Ladder) (int, error) {
	low := r.budget - r.budget/8
	kept, err := r.protected(ctx, l)
	if err != nil {
		return 0, err
	}
	files, err := r.files()
	if err != nil {
		return 0, err
	}
	var total int64
	for _, f := range files {
		total += f.size
	}
	n := 0
	for _, f := range files {
		if total <= low {
			break
		}
		if kept[f.id] {
			continue
		}
		if err := l.SetReplay(ctx, f.id, ""); err != nil && !isNotFound(err) {
			return n, err
		}
		if err := os.Remove(r.Path(f.id)); err != nil && !os.IsNotExist(err) {
			return n, err
		}
		total -= f.size
		n++
	}
	r.total = total
	r.limit = max(r.budget, total+r.budget/8)
	return n, nil
}

// protected are the battles whose replays stay: each player's keep most
// recent.
func (r *Replays) protected(ctx context.Context, l *ladder.Ladder) (map[ladder.BattleID]bool, error) {
	kept := map[ladder.BattleID]bool{}
	// A battle not yet settled may be writing or have just recorded its
	// replay: it is not the oldest, but pruning reaches it when every
	// older replay must stay.
	unsettled, err := l.Battles(ctx, ladder.BattleQuery{States: []ladder.State{ladder.Queued, ladder.Playing, ladder.Played}})
	if err != nil {
		return nil, err
	}
	for _, b := range unsettled {
		kept[b.ID] = true
	}
	if r.keep <= 0 {
		return kept, nil
	}
	for _, g := range l.Games() {
		players, err := l.Players(ctx, g.Name)
		if err != nil {
			return nil, err
		}
		for _, p := range players {
			bs, err := l.Battles(ctx, ladder.BattleQuery{Player: p.ID, States: []ladder.State{ladder.Done}, Limit: r.keep})
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				kept[b.ID] = true
			}
		}
	}
	return kept, nil
}

func isNotFound(err error) bool { return err != nil && errors.Is(err, ladder.ErrNotFound) }

// String says what the replays hold, for the log.
func (r *Replays) String() string {
	return fmt.Sprintf("%s: %d bytes of %d", r.dir, r.Total(), r.budget)
}
