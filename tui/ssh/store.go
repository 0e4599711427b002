package ssh

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// Store keeps what the server must not lose: the user names bound to
// keys, the uploaded players with their history, and the replays (which
// the hall writes into ReplayDir). Layout under the data dir:
//
//	users.json                      key fingerprint -> user name
//	players/USER/NAME.lua           the current version of each player
//	history/USER/NAME.STAMP.lua     every version ever accepted
//	replays/ID.sbr                  finished battles
//
// Every file is written atomically (writeAtomic), so a kill -9 loses at
// most the upload being written, never an accepted one. Paths are built
// only from names that passed checkName. Safe for concurrent use.
type Store struct {
	dir string

	mu      sync.Mutex
	byKey   map[string]string // fingerprint -> user
	byName  map[string]string // user -> fingerprint
	players map[string]PlayerInfo
	// maxUsers bounds the user names bound (0: no bound): each costs a
	// line of users.json, which every claim rewrites whole.
	maxUsers int
}

// PlayerInfo describes one uploaded player.
type PlayerInfo struct {
	User, Name string
	Updated    time.Time
	Bytes      int
}

// ID is the player's class id in the battles' catalog. Class ids are file
// names, so the user and the name are joined with a dot, which neither
// may hold; the lobby shows it as user.name.
func (p PlayerInfo) ID() string { return p.User + "." + p.Name }

// ReplayInfo describes one saved replay.
type ReplayInfo struct {
	ID    string
	Saved time.Time
	Bytes int64
}

// ErrNameTaken is returned when a user name belongs to another key.
var ErrNameTaken = errors.New("user name taken")

// ErrUsersFull is returned when a new key would bind a user name past the
// store's limit (LimitUsers).
var ErrUsersFull = errors.New("no more user names")

// ErrNotFound is returned for a player or replay that does not exist.
var ErrNotFound = errors.New("not found")

const maxUsersFile = 64 << 20

type usersFile struct {
	Users []userEntry `json:"users"`
}

type userEntry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// OpenStore opens (creating) the data dir and reads what is in it.
// Entries that break the rules (a name that checkName refuses, a file
// that is not a regular file) are skipped, so a hand-edited folder cannot
// smuggle a path into the server.
func OpenStore(dir string) (*Store, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{dir, filepath.Join(dir, "players"), filepath.Join(dir, "history"), filepath.Join(dir, "replays")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
		removeTemps(d)
	}
	s := &Store{dir: dir, byKey: map[string]string{}, byName: map[string]string{}, players: map[string]PlayerInfo{}}
	if err := s.readUsers(); err != nil {
		return nil, err
	}
	users, _ := os.ReadDir(filepath.Join(dir, "players"))
	for _, u := range users {
		if !u.IsDir() || checkName("user name", u.Name()) != nil {
			continue
		}
		removeTemps(filepath.Join(dir, "players", u.Name()))
		removeTemps(filepath.Join(dir, "history", u.Name()))
		files, _ := os.ReadDir(filepath.Join(dir, "players", u.Name()))
		for _, f := range files {
			name, ok := strings.CutSuffix(f.Name(), ".lua")
			if !ok || !f.Type().IsRegular() || checkName("player name", name) != nil {
				continue
			}
			if info, err := f.Info(); err == nil {
				p := PlayerInfo{User: u.Name(), Name: name, Updated: info.ModTime(), Bytes: int(info.Size())}
				s.players[p.ID()] = p
			}
		}
	}
	return s, nil
}

func (s *Store) readUsers() error {
	path := filepath.Join(s.dir, "users.json")
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxUsersFile+1))
	if err != nil {
		return err
	}
	if len(data) > maxUsersFile {
		return fmt.Errorf("%s: larger than %d bytes", path, maxUsersFile)
	}
	var uf usersFile
	if err := json.Unmarshal(data, &uf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, u := range uf.Users {
		if checkName("user name", u.Name) != nil || u.Key == "" {
			continue
		}
		if _, dup := s.byName[u.Name]; dup {
			continue
		}
		if _, dup := s.byKey[u.Key]; dup {
			continue
		}
		s.byKey[u.Key], s.byName[u.Name] = u.Name, u.Key
	}
	return nil
}

// Dir is the data dir.
func (s *Store) Dir() string { return s.dir }

// ReplayDir is where finished battles are saved.
func (s *Store) ReplayDir() string { return filepath.Join(s.dir, "replays") }

// User returns the user name bound to a key fingerprint.
func (s *Store) User(fingerprint string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.byKey[fingerprint]
	return u, ok
}

// Claim binds name to fingerprint, or returns the name already bound to
// it. A name bound to another key is ErrNameTaken. The binding is on disk
// before Claim returns.
func (s *Store) Claim(fingerprint, name string) (string, error) {
	if err := checkName("user name", name); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.byKey[fingerprint]; ok {
		return u, nil
	}
	if _, ok := s.byName[name]; ok {
		return "", fmt.Errorf("%w: %s belongs to another key", ErrNameTaken, name)
	}
	if s.maxUsers > 0 && len(s.byName) >= s.maxUsers {
		return "", fmt.Errorf("%w: this server holds %d user names, its limit (serve.users)", ErrUsersFull, s.maxUsers)
	}
	s.byKey[fingerprint], s.byName[name] = name, fingerprint
	if err := s.writeUsers(); err != nil {
		delete(s.byKey, fingerprint)
		delete(s.byName, name)
		return "", err
	}
	return name, nil
}

// LimitUsers bounds the user names Claim binds to n (0: no bound). Names
// bound already are kept whatever their number.
func (s *Store) LimitUsers(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.maxUsers = n
}

// UsersFull says whether Claim would refuse a new key for the limit: a
// check made before the work a first upload or bot costs.
func (s *Store) UsersFull() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxUsers > 0 && len(s.byName) >= s.maxUsers
}

func (s *Store) writeUsers() error {
	var uf usersFile
	for name, key := range s.byName {
		uf.Users = append(uf.Users, userEntry{Key: key, Name: name})
	}
	slices.SortFunc(uf.Users, func(a, b userEntry) int { return strings.Compare(a.Name, b.Name) })
	data, err := json.MarshalIndent(uf, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(s.dir, "users.json"), append(data, '\n'), 0o600)
}

// Players lists the uploaded players by id.
func (s *Store) Players() []PlayerInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PlayerInfo, 0, len(s.players))
	for _, p := range s.players {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PlayerInfo) int { return strings.Compare(a.ID(), b.ID()) })
	return out
}

// Count is how many players user holds.
func (s *Store) Count(user string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.players {
		if p.User == user {
			n++
		}
	}
	return n
}

// Names are the names of the players user holds, in no order.
func (s *Store) Names(user string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, p := range s.players {
		if p.User == user {
			out = append(out, p.Name)
		}
	}
	return out
}

// Has reports whether user holds a player called name.
func (s *Store) Has(user, name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.players[PlayerInfo{User: user, Name: name}.ID()]
	return ok
}

// paths returns the current and a new history file of user/name, both
// checked to lie inside the data dir.
func (s *Store) paths(user, name string, now time.Time) (cur, hist string, err error) {
	if err := checkName("user name", user); err != nil {
		return "", "", err
	}
	if err := checkName("player name", name); err != nil {
		return "", "", err
	}
	cur = filepath.Join(s.dir, "players", user, name+".lua")
	hist = filepath.Join(s.dir, "history", user, name+"."+now.UTC().Format("20060102T150405.000000000Z")+".lua")
	if !inside(filepath.Join(s.dir, "players"), cur) || !inside(filepath.Join(s.dir, "history"), hist) {
		return "", "", &NameError{What: "player name", Name: name, Reason: "leaves the data dir"}
	}
	return cur, hist, nil
}

// Put stores src as user's player name: first into the history, then as
// the current version (both atomically), so an interrupted Put leaves the
// previous version in place. It reports whether an older version was
// replaced.
func (s *Store) Put(user, name string, src []byte) (replaced bool, err error) {
	now := time.Now()
	cur, hist, err := s.paths(user, name, now)
	if err != nil {
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range []string{filepath.Dir(cur), filepath.Dir(hist)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return false, err
		}
	}
	if err := writeAtomic(hist, src, 0o600); err != nil {
		return false, err
	}
	if err := writeAtomic(cur, src, 0o600); err != nil {
		return false, err
	}
	p := PlayerInfo{User: user, Name: name, Updated: now, Bytes: len(src)}
	_, replaced = s.players[p.ID()]
	s.players[p.ID()] = p
	return replaced, nil
}

// Remove takes user's player name out of the battles; its history stays.
func (s *Store) Remove(user, name string) error {
	cur, _, err := s.paths(user, name, time.Now())
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := PlayerInfo{User: user, Name: name}.ID()
	if _, ok := s.players[id]; !ok {
		return fmt.Errorf("%w: no player %s/%s", ErrNotFound, user, name)
	}
	if err := os.Remove(cur); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	delete(s.players, id)
	return syncDir(filepath.Dir(cur))
}

// Source returns the current version of every player, by class id
// (PlayerInfo.ID) with ".lua", ready to lay beside the shipped scripts.
func (s *Store) Sources() (map[string][]byte, error) {
	players := s.Players()
	out := make(map[string][]byte, len(players))
	for _, p := range players {
		cur, _, err := s.paths(p.User, p.Name, time.Time{})
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(cur)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, err
		}
		out[p.ID()+".lua"] = data
	}
	return out, nil
}

// Replays lists the saved replays, newest first, at most n.
func (s *Store) Replays(n int) []ReplayInfo {
	entries, _ := os.ReadDir(s.ReplayDir())
	var out []ReplayInfo
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".sbr")
		if !ok || !e.Type().IsRegular() || checkReplayID(id) != nil {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, ReplayInfo{ID: id, Saved: info.ModTime(), Bytes: info.Size()})
	}
	slices.SortFunc(out, func(a, b ReplayInfo) int { return b.Saved.Compare(a.Saved) })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// ReplayPath is the file of replay id, which must exist.
func (s *Store) ReplayPath(id string) (string, error) {
	if err := checkReplayID(id); err != nil {
		return "", err
	}
	p := filepath.Join(s.ReplayDir(), id+".sbr")
	if !inside(s.ReplayDir(), p) {
		return "", &NameError{What: "replay id", Name: id, Reason: "leaves the data dir"}
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("%w: no replay %s", ErrNotFound, id)
	}
	return p, nil
}

// byNameLookup returns the key a user name is bound to.
func (s *Store) byNameLookup(user string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.byName[user]
	return k, ok
}
