package ladder

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// memory is the in-memory Store: the whole ladder in maps, behind one
// lock. Update works on a copy and swaps it in when fn succeeds, so a
// failed transaction leaves nothing behind. It is for tests and for a
// ladder nobody needs to keep.
type memory struct {
	mu    sync.RWMutex
	state *memState
}

type memState struct {
	seq      int64
	players  map[PlayerID]Player
	versions map[VersionID]Version
	sources  map[string][]byte
	battles  map[BattleID]Battle
	changes  []RatingChange
	meta     map[string]string
	nextP    PlayerID
	nextV    VersionID
	nextB    BattleID
}

// NewMemory returns an empty in-memory Store.
func NewMemory() Store {
	return &memory{state: &memState{
		players: map[PlayerID]Player{}, versions: map[VersionID]Version{}, sources: map[string][]byte{},
		battles: map[BattleID]Battle{}, meta: map[string]string{},
	}}
}

func (m *memory) Close() error { return nil }

func (m *memory) Update(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.state.clone()
	if err := fn(&memTx{s: s, write: true}); err != nil {
		return err
	}
	m.state = s
	return nil
}

func (m *memory) View(ctx context.Context, fn func(Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return fn(&memTx{s: m.state})
}

func (s *memState) clone() *memState {
	c := *s
	c.players = maps.Clone(s.players)
	c.versions = maps.Clone(s.versions)
	c.sources = maps.Clone(s.sources) // values are never changed in place
	c.battles = maps.Clone(s.battles) // seats are copied on save
	c.changes = slices.Clone(s.changes)
	c.meta = maps.Clone(s.meta)
	return &c
}

type memTx struct {
	s     *memState
	write bool
}

func (t *memTx) mustWrite() error {
	if !t.write {
		return fmt.Errorf("ladder: write in a read-only transaction")
	}
	return nil
}

func (t *memTx) NextSeq() (int64, error) {
	if err := t.mustWrite(); err != nil {
		return 0, err
	}
	t.s.seq++
	return t.s.seq, nil
}

func (t *memTx) LastSeq() (int64, error) { return t.s.seq, nil }

func (t *memTx) Player(id PlayerID) (Player, error) {
	p, ok := t.s.players[id]
	if !ok {
		return Player{}, fmt.Errorf("player %d: %w", id, ErrNotFound)
	}
	return p, nil
}

func (t *memTx) PlayerByName(game, name string) (Player, error) {
	for _, p := range t.s.players {
		if p.Game == game && p.Name == name {
			return p, nil
		}
	}
	return Player{}, fmt.Errorf("player %q of game %q: %w", name, game, ErrNotFound)
}

func (t *memTx) Players(game string) ([]Player, error) {
	var out []Player
	for _, p := range t.s.players {
		if p.Game == game {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Player) int { return int(a.ID - b.ID) })
	return out, nil
}

func (t *memTx) SavePlayer(p *Player) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	for _, q := range t.s.players {
		if q.ID != p.ID && q.Game == p.Game && q.Name == p.Name {
			return fmt.Errorf("ladder: game %q already has a player %q", p.Game, p.Name)
		}
	}
	if p.ID == 0 {
		t.s.nextP++
		p.ID = t.s.nextP
	} else if _, ok := t.s.players[p.ID]; !ok {
		return fmt.Errorf("player %d: %w", p.ID, ErrNotFound)
	}
	t.s.players[p.ID] = *p
	return nil
}

func (t *memTx) SaveVersion(v *Version) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	if _, ok := t.s.players[v.Player]; !ok {
		return fmt.Errorf("version of player %d: %w", v.Player, ErrNotFound)
	}
	t.s.nextV++
	v.ID = t.s.nextV
	t.s.versions[v.ID] = *v
	return nil
}

func (t *memTx) Versions(p PlayerID) ([]Version, error) {
	var out []Version
	for _, v := range t.s.versions {
		if v.Player == p {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b Version) int { return int(a.ID - b.ID) })
	return out, nil
}

func (t *memTx) SaveSource(hash string, src []byte) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	if _, ok := t.s.sources[hash]; !ok {
		t.s.sources[hash] = slices.Clone(src)
	}
	return nil
}

func (t *memTx) Source(hash string) ([]byte, error) {
	src, ok := t.s.sources[hash]
	if !ok {
		return nil, fmt.Errorf("source %s: %w", hash, ErrNotFound)
	}
	return slices.Clone(src), nil
}

func (t *memTx) SaveBattle(b *Battle) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	if b.ID == 0 {
		t.s.nextB++
		b.ID = t.s.nextB
	} else if _, ok := t.s.battles[b.ID]; !ok {
		return fmt.Errorf("battle %d: %w", b.ID, ErrNotFound)
	}
	c := *b
	c.Seats = cloneSeats(b.Seats)
	t.s.battles[b.ID] = c
	return nil
}

func cloneSeats(seats []Seat) []Seat {
	out := slices.Clone(seats)
	for i := range out {
		out[i].Result.Values = slices.Clone(out[i].Result.Values)
	}
	return out
}

func (t *memTx) Battle(id BattleID) (Battle, error) {
	b, ok := t.s.battles[id]
	if !ok {
		return Battle{}, fmt.Errorf("battle %d: %w", id, ErrNotFound)
	}
	b.Seats = cloneSeats(b.Seats)
	return b, nil
}

func (t *memTx) Battles(q BattleQuery) ([]Battle, error) {
	var out []Battle
	for _, b := range t.s.battles {
		if matches(q, b) {
			b.Seats = cloneSeats(b.Seats)
			out = append(out, b)
		}
	}
	if q.BySeq {
		slices.SortFunc(out, func(a, b Battle) int { return int(a.Seq - b.Seq) })
	} else {
		slices.SortFunc(out, func(a, b Battle) int { return int(b.ID - a.ID) })
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// matches reports whether b is selected by q.
func matches(q BattleQuery, b Battle) bool {
	if q.Game != nil && b.Game != *q.Game {
		return false
	}
	if len(q.States) > 0 && !slices.Contains(q.States, b.State) {
		return false
	}
	if q.BySeq && b.State != Done {
		return false
	}
	if b.ID <= q.After {
		return false
	}
	if q.Player != 0 && !slices.ContainsFunc(b.Seats, func(s Seat) bool { return s.Player == q.Player }) {
		return false
	}
	return true
}

func (t *memTx) AddRatingChange(c RatingChange) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	t.s.changes = append(t.s.changes, c)
	return nil
}

func (t *memTx) RatingChanges(p PlayerID, limit int) ([]RatingChange, error) {
	var out []RatingChange
	for i := len(t.s.changes) - 1; i >= 0; i-- {
		if c := t.s.changes[i]; c.Player == p {
			out = append(out, c)
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	slices.SortStableFunc(out, func(a, b RatingChange) int { return int(b.Seq - a.Seq) })
	return out, nil
}

func (t *memTx) RatingAt(p PlayerID, seq int64) (RatingChange, error) {
	found := -1
	for i, c := range t.s.changes {
		if c.Player == p && c.Seq <= seq && (found < 0 || c.Seq >= t.s.changes[found].Seq) {
			found = i
		}
	}
	if found < 0 {
		return RatingChange{}, fmt.Errorf("rating of player %d at %d: %w", p, seq, ErrNotFound)
	}
	return t.s.changes[found], nil
}

func (t *memTx) DeleteRatingChanges(game string, kinds ...ChangeKind) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	t.s.changes = slices.DeleteFunc(t.s.changes, func(c RatingChange) bool {
		p, ok := t.s.players[c.Player]
		return ok && p.Game == game && slices.Contains(kinds, c.Kind)
	})
	return nil
}

func (t *memTx) Meta(key string) (string, error) { return t.s.meta[key], nil }

func (t *memTx) SetMeta(key, value string) error {
	if err := t.mustWrite(); err != nil {
		return err
	}
	t.s.meta[key] = value
	return nil
}
