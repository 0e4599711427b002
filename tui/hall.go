package tui

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Hall errors. Each is returned as is or wrapped with the battle's ID.
var (
	// ErrNoBattle: no live battle has that ID (or the user may not watch it).
	ErrNoBattle = errors.New("no such battle")
	// ErrHallClosed: the hall was closed; nothing new starts.
	ErrHallClosed = errors.New("the hall is closed")
	// ErrOverCap: a private battle asked for more than the hall allows
	// (see CapError for which cap).
	ErrOverCap = errors.New("over the hall's cap")
)

// DefaultMaxTeams is HallOptions.MaxTeams when it is 0.
const DefaultMaxTeams = 16

// CapError says which cap a private battle's setup broke. It unwraps to
// ErrOverCap.
type CapError struct {
	What       string // "board size", "round limit" or "team count"
	Asked, Cap int
}

func (e *CapError) Error() string {
	return fmt.Sprintf("%s %d is over this server's cap of %d", e.What, e.Asked, e.Cap)
}

func (e *CapError) Unwrap() error { return ErrOverCap }

// UserCapError: a user asked for a private battle while holding as many
// as one user may (HallOptions.MaxPerUser), running or waiting, in this
// session or another. It unwraps to ErrOverCap.
type UserCapError struct{ Have, Cap int }

func (e *UserCapError) Error() string {
	if e.Have == 1 {
		return "you have a private battle already, the limit per user: end it to start another"
	}
	return fmt.Sprintf("you have %d private battles already, the limit per user: end one to start another", e.Have)
}

func (e *UserCapError) Unwrap() error { return ErrOverCap }

// FeaturedOptions describe the featured battle: the one the hall keeps
// running so that there is always something to watch.
type FeaturedOptions struct {
	// Game is the game played ("" SquareBattle, else a GameSource's ID).
	Game string
	// Players are the class ids of the teams; empty picks up to four
	// starting players from the source, by the battle's seed.
	Players []string
	// Size and Rounds of each featured battle; 0 takes Settings'.
	Size, Rounds int
	// Seed 0 draws a fresh seed for every featured battle; any other
	// value plays that seed every time (the same battle again).
	Seed uint64
	// Linger is how long a finished featured battle stays on show before
	// the next one starts; 0 means 10 s, a negative value none.
	Linger time.Duration
}

// HallOptions configure a Hall. A zero MaxSize or MaxRounds means no cap;
// a zero MaxPrivate or MaxTeams takes its default.
type HallOptions struct {
	// Source builds every battle of the hall; a GameSource offers rule
	// mods too. The hall calls it from its own goroutines and from
	// sessions' goroutines, so it must be safe for concurrent use.
	Source Source
	// Settings are the pace (speed, rewind, frame cap of the drivers) and
	// the lobby's defaults for the hall's battles.
	Settings Settings
	Featured FeaturedOptions
	// MaxPrivate is how many private battles run at once (each costs
	// CPU); more wait in a queue, their position shown to their owners.
	// 0 means 2.
	MaxPrivate int
	// MaxPerUser is how many private battles one user (SessionOptions'
	// Account: a key, over all its sessions) may have running or waiting
	// at once (serve.private_battles_per_user); 0: no cap beyond
	// MaxPrivate's queue.
	MaxPerUser int
	// MaxSize and MaxRounds cap private battles' setups (0: no cap).
	MaxSize, MaxRounds int
	// MaxTeams caps a private battle's teams (each is a Lua VM): 0 means
	// DefaultMaxTeams, as a lobby would otherwise let a board of N×N
	// cells take N² teams.
	MaxTeams int
	// ReplayDir, when set, receives every finished battle as a replay,
	// written atomically (temp + rename); "" saves none.
	ReplayDir string
	// Recording, when set, is told of every battle whose replay will be
	// saved, as it starts: the file, whether it is the featured battle,
	// and its owner with the owner's key (Setup.OwnerKey); the embedding
	// program decides from it who may have the replay.
	Recording func(file string, featured bool, owner, ownerKey string)
	// Ladder, when set, is the arena's ladder: the menu then offers
	// Ladder and My players (NewLadderView makes one of a
	// *ladder.Ladder). nil: no ladder, and nothing of it shows.
	Ladder Ladder
	// NewSeed draws seeds (nil: math/rand); tests fix it.
	NewSeed func() uint64
	// Logger receives one line per battle event (start, end, saved,
	// stopped); nil discards them.
	Logger *slog.Logger
}

// BattleInfo describes one live battle as the battle list shows it. It is a
// copy: it does not change when the battle moves on.
type BattleInfo struct {
	ID            string // what `watch ID` takes
	Title         string // the players, "A vs B vs C"
	Owner         string // "" for the featured battle
	Shared        bool   // others may watch it
	Featured      bool
	Round, Rounds int
	Viewers       int // sessions watching it now, its owner included
	Players       []string
	Over          bool // it ended and is still on show
	Queued        bool // a private battle waiting for a free slot
}

// Hall holds the live battles many sessions can watch: the featured battle
// (always running; a new one starts when it ends) and the battles sessions
// started (private to their owner until shared). One driver goroutine per
// battle publishes immutable frames; it never waits for a viewer: each
// viewer has a mailbox of one frame that a newer frame replaces.
//
// A private battle holds one of MaxPrivate running slots from its start
// until it ends or nobody watches it any more: its owner leaving stops it
// unless others watch it (shared), who then see it on to its end or
// until the last of them leaves (a battle nobody watches would hold a
// slot for nothing). Further requests wait in a queue, in order. One user
// holds at most MaxPerUser of the slots and the queue's places.
//
// Concurrency: every method is safe for concurrent use. mu guards the
// fields below it; no driver is ever stopped while mu is held (a driver
// that ends calls back into the hall).
type Hall struct {
	o    HallOptions
	log  *slog.Logger
	wake chan struct{} // the supervisor has news (capacity 1)
	// drawing holds a token for each shared picture being drawn or
	// encoded (share.go): one fewer than the processors, so that however
	// many sessions draw, the battles' drivers always find one free.
	drawing chan struct{}
	quit    chan struct{}
	done    chan struct{}

	mu       sync.Mutex
	closed   bool
	seq      int
	featured *liveBattle
	live     map[string]*liveBattle
	running  int            // private battles holding a slot
	queue    []*ticket      // private battles waiting for a slot, in order
	perUser  map[string]int // account -> battles and tickets counted against MaxPerUser
	renames  map[string]string
	ended    []*liveBattle
	sessions map[*App]struct{} // running sessions, for Reload
}

// liveBattle is a battle in the hall: its driver and who may watch it.
// The fields above the line never change after it starts.
type liveBattle struct {
	id, title string
	featured  bool
	setup     Setup
	d         *driver
	record    string // its replay file ("" none)

	// owner is who started it, by user name ("" the featured battle):
	// the name a session knows itself by, which becomes the user name
	// its key is given by a first upload (Hall.rename).
	owner   atomic.Pointer[string]
	account string // the owner's account (Hall.MaxPerUser), set before it is listed
	counted bool   // counts against its account's cap (Hall.mu)
	// left: its owner left it while others watched; the last of them to
	// leave stops it.
	left      atomic.Bool
	summarise sync.Once // its replay's summary is written once
	shared    atomic.Bool
	viewers   atomic.Int32
	share     frameShare // pictures its viewers share
	over      atomic.Bool
	slot      bool // holds a running slot (Hall.mu)
	// human is the team its owner plays at the keys (nil none): only the
	// owner's session, which alone may hold it, gives it keys.
	human *humanSide
}

// NewHall starts a hall and its featured battle.
func NewHall(o HallOptions) (*Hall, error) {
	if o.Source == nil {
		return nil, errors.New("hall: no source")
	}
	if o.MaxPrivate <= 0 {
		o.MaxPrivate = 2
	}
	if o.MaxTeams <= 0 {
		o.MaxTeams = DefaultMaxTeams
	}
	if o.Settings.FPS < 1 {
		o.Settings.FPS = 30
	}
	if o.Settings.Size < 2 {
		o.Settings.Size = 32
	}
	if o.Settings.Rounds < 1 {
		o.Settings.Rounds = 1000
	}
	if o.Featured.Linger == 0 {
		o.Featured.Linger = 10 * time.Second
	}
	if o.NewSeed == nil {
		o.NewSeed = func() uint64 { return 1 + rand.Uint64N(1<<53-1) }
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	h := &Hall{o: o, log: log, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}),
		drawing: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1)),
		live:    map[string]*liveBattle{}, sessions: map[*App]struct{}{}, perUser: map[string]int{}, renames: map[string]string{}}
	if err := h.startFeatured(); err != nil {
		return nil, err
	}
	go h.supervise()
	return h, nil
}

// Close stops every battle, saves what should be saved (when ReplayDir is
// set: finished battles are already saved, unfinished ones are saved as
// they stand) and waits for the hall's goroutines. Sessions watching see
// their battle stop; Close does not end them (their ctx does). Requests
// waiting in the queue fail with ErrHallClosed.
func (h *Hall) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	var all []*liveBattle
	for _, b := range h.live {
		all = append(all, b)
	}
	for _, t := range h.queue {
		t.err = ErrHallClosed
	}
	h.queue, h.featured = nil, nil
	h.live = map[string]*liveBattle{}
	h.mu.Unlock()
	close(h.quit)
	<-h.done
	var errs []error
	for _, b := range all {
		if err := b.d.stop(); err != nil {
			errs = append(errs, fmt.Errorf("battle %s: %w", b.id, err))
		}
		h.saveSummary(b)
		h.logEvent("battle stopped", b, "why", "closing")
	}
	return errors.Join(errs...)
}

// Battles lists what user may watch: the featured battle, the shared
// ones, and user's own (queued ones included, with no ID), the featured
// first and the rest by ID.
func (h *Hall) Battles(user string) []BattleInfo {
	h.mu.Lock()
	var bs []*liveBattle
	for _, b := range h.live {
		if b.visibleTo(user) {
			bs = append(bs, b)
		}
	}
	var queued []BattleInfo
	for _, t := range h.queue {
		if user != "" && t.owner == user {
			queued = append(queued, BattleInfo{Title: titleOf(t.su.Players), Owner: t.owner, Rounds: t.su.Rounds,
				Players: slices.Clone(t.su.Players), Queued: true})
		}
	}
	h.mu.Unlock()
	slices.SortFunc(bs, func(a, b *liveBattle) int {
		if a.featured != b.featured {
			if a.featured {
				return -1
			}
			return 1
		}
		x, _ := strconv.Atoi(a.id)
		y, _ := strconv.Atoi(b.id)
		return x - y
	})
	out := make([]BattleInfo, 0, len(bs)+len(queued))
	for _, b := range bs {
		out = append(out, b.info())
	}
	return append(out, queued...)
}

// Stop ends a live battle (an admin's order), saving it as Close does. It
// returns ErrNoBattle for an unknown ID. Stopping the featured battle
// starts the next one; a private battle's owner sees it stop.
func (h *Hall) Stop(id string) error {
	h.mu.Lock()
	b := h.live[id]
	if b == nil {
		h.mu.Unlock()
		return fmt.Errorf("battle %q: %w", id, ErrNoBattle)
	}
	delete(h.live, id)
	h.freeSlot(b)
	featured := b == h.featured
	if featured {
		h.featured = nil
	}
	h.mu.Unlock()
	err := b.d.stop()
	h.saveSummary(b)
	h.logEvent("battle stopped", b, "why", "admin")
	if featured {
		if ferr := h.startFeatured(); ferr != nil {
			h.log.Warn("featured battle", "err", ferr)
		}
	}
	h.poke()
	return err
}

// Reload tells every session that the source's players changed (an
// upload): lobbies and player lists show them at once. It never waits for
// a session (an event that does not fit a session's queue is dropped; the
// session's next screen reads the players anew anyway).
func (h *Hall) Reload() {
	h.mu.Lock()
	apps := make([]*App, 0, len(h.sessions))
	for a := range h.sessions {
		apps = append(apps, a)
	}
	h.mu.Unlock()
	for _, a := range apps {
		a.Reload()
	}
}

// rename gives the battles and requests of owner old to name: a
// session's provisional name became the user name its key was given by an
// upload (SessionOptions.Whoami). A request being started meanwhile is
// renamed as it joins the live battles.
func (h *Hall) rename(old, name string) {
	if old == "" || name == "" || old == name {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.renames[old] = name
	for _, b := range h.live {
		if b.ownerName() == old {
			b.owner.Store(&name)
		}
	}
	for _, t := range h.queue {
		if t.owner == old {
			t.owner = name
		}
	}
}

// join and part keep the set of running sessions.
func (h *Hall) join(a *App) {
	h.mu.Lock()
	h.sessions[a] = struct{}{}
	h.mu.Unlock()
}

func (h *Hall) part(a *App) {
	h.mu.Lock()
	delete(h.sessions, a)
	h.mu.Unlock()
}

// visibleTo reports whether user may watch b.
func (b *liveBattle) visibleTo(user string) bool {
	return b.featured || b.shared.Load() || (user != "" && b.ownerName() == user)
}

// ownerName is who owns b now ("" nobody: the featured battle).
func (b *liveBattle) ownerName() string {
	if p := b.owner.Load(); p != nil {
		return *p
	}
	return ""
}

func (b *liveBattle) info() BattleInfo {
	f := b.d.latest()
	return BattleInfo{ID: b.id, Title: b.title, Owner: b.ownerName(), Shared: b.shared.Load(), Featured: b.featured,
		Round: f.snap.Round, Rounds: f.snap.Rounds, Viewers: int(b.viewers.Load()), Players: slices.Clone(b.setup.Players),
		Over: b.over.Load()}
}

// titleOf names a battle by its players: "a vs b vs c".
func titleOf(players []string) string { return strings.Join(players, " vs ") }

// find returns the battle id ("" the featured one) if user may watch it.
func (h *Hall) find(id, user string) (*liveBattle, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrHallClosed
	}
	if id == "" {
		if h.featured == nil {
			return nil, fmt.Errorf("the featured battle is starting: %w", ErrNoBattle)
		}
		return h.featured, nil
	}
	if b := h.live[id]; b != nil && b.visibleTo(user) {
		return b, nil
	}
	return nil, fmt.Errorf("battle %q: %w", id, ErrNoBattle)
}

// currentFeatured is the featured battle now (nil between two).
func (h *Hall) currentFeatured() *liveBattle {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.featured
}

// poke wakes the supervisor without waiting.
func (h *Hall) poke() {
	select {
	case h.wake <- struct{}{}:
	default:
	}
}

// launch builds a battle and starts its driver.
func (h *Hall) launch(owner string, su Setup, p pace, featured bool) (*liveBattle, error) {
	battle, err := h.o.Source.NewBattle(su)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.seq++
	id := strconv.Itoa(h.seq)
	h.mu.Unlock()
	record := ""
	if h.o.ReplayDir != "" {
		record = filepath.Join(h.o.ReplayDir, time.Now().UTC().Format("20060102-150405")+"-"+id+".sbr")
	}
	if record != "" && h.o.Recording != nil {
		h.o.Recording(record, featured, owner, su.OwnerKey)
	}
	keep := h.o.Settings.Rewind
	if keep == 0 {
		keep = DefaultRewind
	}
	p.fps = h.o.Settings.FPS
	hs := humanSideOf(battle)
	if hs != nil {
		if featured {
			battle.Close()
			return nil, errors.New("a featured battle has nobody at the keys: no Human in it")
		}
		p = humanPace(h.o.Settings, p, hs)
	}
	d, err := prepareLive(battle, p, keep, record)
	if err != nil {
		battle.Close()
		return nil, err
	}
	b := &liveBattle{id: id, title: titleOf(su.Players), featured: featured, setup: su, d: d, human: hs, record: record}
	b.owner.Store(&owner)
	d.hideDir = true
	d.onEnd = func() { h.battleEnded(b) }
	go d.loop()
	h.logEvent("battle started", b, "size", su.Size, "rounds", su.Rounds, "seed", su.Seed)
	return b, nil
}

// battleEnded runs on the battle's driver goroutine when it ends, its
// replay written: it writes the replay's summary and queues the news for
// the supervisor.
func (h *Hall) battleEnded(b *liveBattle) {
	b.over.Store(true)
	h.writeSummary(b, func() ReplaySummary {
		sum := summaryOf(b, b.d.battle.Snapshot())
		sum.Over = true
		return sum
	})
	h.mu.Lock()
	h.ended = append(h.ended, b)
	h.mu.Unlock()
	h.poke()
}

// logEvent writes one line about a battle.
func (h *Hall) logEvent(msg string, b *liveBattle, kv ...any) {
	args := append([]any{"battle", b.id, "owner", b.ownerName(), "players", b.title}, kv...)
	h.log.Info(msg, args...)
}
