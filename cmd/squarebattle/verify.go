package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// errDiffers is wrapped by every verification that found a difference.
var errDiffers = errors.New("replay differs")

// diffError says where a re-run left the recording.
type diffError struct {
	File   string
	Round  int // 0: before the first round (scripts, rules, start)
	Reason string
}

func (e *diffError) Error() string {
	if e.Round > 0 {
		return fmt.Sprintf("%s: round %d differs: %s", e.File, e.Round, e.Reason)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Reason)
}

func (e *diffError) Unwrap() error { return errDiffers }

// verifyReplay plays the recorded battle again from its header with the
// scripts found now, compares every round, and prints "identical" or
// returns the first difference. Scripts are matched by the SHA-256 the
// replay recorded, so a changed script is named before anything is played.
func verifyReplay(cfg config.Config, file string, stdout io.Writer) error {
	rep, err := replay.Open(file)
	if err != nil {
		return bad(err)
	}
	h := &rep.Header
	differs := func(round int, format string, args ...any) error {
		return &diffError{File: file, Round: round, Reason: fmt.Sprintf(format, args...)}
	}
	rules := battle.RulesConfig{Arena: cfg.Arena, Rules: cfg.Rules, Limits: cfg.Limits}
	if len(h.Config) > 0 {
		if err := json.Unmarshal(h.Config, &rules); err != nil {
			return bad(fmt.Errorf("%s: line 1: config: %v", file, err))
		}
	}
	// A rule mod whose rules chose the board's side (orbs without --size)
	// records arena.size 0: the re-run asks them again, since choosing
	// draws from their random stream.
	chose := h.Game != "" && len(h.Config) > 0 && rules.Arena.Size == 0
	if chose {
		rules.Arena.Size = h.Size
	}
	cfg.Arena, cfg.Rules, cfg.Limits, cfg.Options = rules.Arena, rules.Rules, rules.Limits, rules.Options
	if err := cfg.Validate(); err != nil {
		return bad(fmt.Errorf("%s: line 1: config: %w", file, err))
	}

	if h.Game != "" {
		return verifyMod(cfg, file, rep, chose, stdout)
	}
	fsys, dir, err := scriptsFS(cfg)
	if err != nil {
		return err
	}
	keep, err := checkScripts(fsys, dir, scriptClasses(h), differs)
	if err != nil {
		return err
	}
	// Only the recorded classes are loaded, so a script added to the folder
	// since does not renumber the classes; and they are named as when they
	// were recorded, so script problems read the same.
	if len(h.Classes) > 0 {
		dir = path.Dir(h.Classes[0].File)
	}
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: onlyFS{fsys, keep}, Dir: dir, Limits: battle.Limits(cfg)})
	if err != nil {
		return err
	}
	players, err := recordedPlayers(cat, file, h, differs)
	if err != nil {
		return err
	}
	o := engine.Options{Size: h.Size, Wrap: h.Wrap, Rounds: h.Rounds, ReplicateRounds: cfg.Rules.ReplicateRounds, Seed: h.Seed, Workers: battle.Workers(cfg)}
	if h.FromMap {
		start := rep.Timeline.At(0)
		o.Map = &engine.Map{Size: h.Size, Cells: make([]int, len(start.Cells))}
		for i, c := range start.Cells {
			o.Map.Cells[i] = int(c)
		}
	}
	var g *luabind.Game // the rules in Lua it was played under, if any
	if h.Rules != nil {
		if g, err = recordedRules(cfg, h.Rules, differs); err != nil {
			return err
		}
	}
	seat, err := seaterOf(cfg)
	if err != nil {
		return err
	}
	// Where the recording says the wall around a team fired, the re-run
	// does what happened then rather than ask the team again: nothing
	// promises the wall fires twice.
	seat = outsideSeater(luabind.ReplayedSeater(seat, recordedBackstops(rep)), rep)
	b, err := luabind.NewResolvedSeatedBattle(cat, players, o, g, cfg.Limits.RulesInstructions, seat)
	if err != nil {
		return differs(0, "the battle cannot be set up again: %v", err)
	}
	defer b.Close()
	return compareRerun(b, engine.NewRecorder(b.Battle), file, rep, stdout, nil)
}

// phaseName names a team's phase of a round: its turn or its
// settlement, or a rule mod's batch of calls.
func phaseName(settle bool, batch int) string {
	switch {
	case settle:
		return "its settlement"
	case batch > 0:
		return fmt.Sprintf("call batch %d", batch)
	}
	return "its turn"
}

// describeBackstops names a round's backstop events for a difference.
func describeBackstops(events []engine.Backstop) string {
	if len(events) == 0 {
		return "none"
	}
	var parts []string
	for _, e := range events {
		parts = append(parts, fmt.Sprintf("team %d %s in %s (%s)", e.Team, e.Kind, phaseName(e.Settle, e.Batch), safe(e.Message)))
	}
	return strings.Join(parts, "; ")
}

// recordedBackstops lists the backstop events of every recorded round, in
// order.
func recordedBackstops(rep *replay.Replay) []engine.Backstop {
	return everyRound(rep, func(l *engine.RoundLog) []engine.Backstop { return l.Backstops })
}

// everyRound lists what pick takes from every recorded round, in order.
func everyRound[T any](rep *replay.Replay, pick func(*engine.RoundLog) []T) []T {
	var out []T
	for r := 1; r <= rep.Timeline.Last(); r++ {
		l, _ := rep.Timeline.Log(r)
		out = append(out, pick(&l)...)
	}
	return out
}

// verifyMod is verifyReplay for a rule mod: the game is found by the
// folder name the replay recorded, in the scripts folder, and its rules.lua
// is checked like every player. chose says the rules chose the board's
// side.
func verifyMod(cfg config.Config, file string, rep *replay.Replay, chose bool, stdout io.Writer) error {
	h := &rep.Header
	differs := func(round int, format string, args ...any) error {
		return &diffError{File: file, Round: round, Reason: fmt.Sprintf(format, args...)}
	}
	sub, dir, err := gameFS(cfg, h.Game)
	if err != nil {
		return err
	}
	keep, err := checkScripts(sub, dir, scriptClasses(h), differs)
	if err != nil {
		return err
	}
	if len(h.Classes) > 0 {
		dir = path.Dir(h.Classes[0].File)
	}
	g, err := luabind.LoadGame(onlyFS{sub, keep}, dir, battle.Limits(cfg))
	if err != nil {
		return differs(0, "%v", err)
	}
	if err := g.SetOptions(cfg.Options); err != nil {
		return differs(0, "%v", err)
	}
	players, err := recordedPlayers(g.Catalog, file, h, differs)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(g.Info.Columns, h.Columns) {
		return differs(0, "the score columns are %v, the replay has %v", g.Info.Columns, h.Columns)
	}
	o := engine.ModOptions{Size: h.Size, Wrap: h.Wrap, Rounds: h.Rounds, Seed: h.Seed, Workers: battle.Workers(cfg)}
	if chose {
		o.Size = 0
	}
	seat, rs, err := wallsOf(cfg)
	if err != nil {
		return err
	}
	// As for SquareBattle: the wall's recorded events are taken as
	// recorded, not asked of the teams again.
	seat = outsideSeater(luabind.ReplayedSeater(seat, recordedBackstops(rep)), rep)
	o.Codec = luabind.PlainJSON // outside teams' recorded answers are plain values as JSON
	b, err := luabind.NewWalledModBattle(g, players, o, cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		return differs(0, "the battle cannot be set up again: %v", err)
	}
	defer b.Close()
	return compareRerun(b, engine.NewModRecorder(b.ModBattle), file, rep, stdout, b.Err)
}

// checkScripts compares every recorded class with its file in fsys (dir
// names it in messages) and returns the names of the files to load.
func checkScripts(fsys fs.FS, dir string, classes []replay.Class, differs func(int, string, ...any) error) (map[string]bool, error) {
	var problems []string
	keep := map[string]bool{}
	for _, c := range classes {
		name := c.ID + ".lua"
		keep[name] = true
		src, err := fs.ReadFile(fsys, name)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("script %s/%s is missing", dir, name))
		case sha(src) != c.SHA256:
			problems = append(problems, fmt.Sprintf("script %s/%s changed: sha256 %.12s… on disk, %.12s… in the replay", dir, name, sha(src), c.SHA256))
		}
	}
	if len(problems) > 0 {
		return nil, differs(0, "%s", strings.Join(problems, "; "))
	}
	return keep, nil
}

// recordedPlayers checks that cat holds the recorded classes in the
// recorded order and returns the recorded players.
func recordedPlayers(cat *luabind.Catalog, file string, h *replay.Header, differs func(int, string, ...any) error) ([]*luabind.Class, error) {
	var ids []string
	for _, c := range scriptClasses(h) {
		ids = append(ids, c.ID)
	}
	if got := cat.Classes(); !reflect.DeepEqual(got, ids) {
		for _, c := range cat.All {
			if c.Err != nil {
				return nil, differs(0, "%v", c.Err)
			}
		}
		return nil, differs(0, "classes %v, the replay has %v", got, ids)
	}
	var players []*luabind.Class
	for i, p := range h.Players {
		if b := recordedBotPlayer(h, i); b != nil {
			players = append(players, b)
			continue
		}
		if p.Class < 0 || p.Class >= len(ids) {
			return nil, bad(fmt.Errorf("%s: line 1: player %d has class %d of %d", file, p.Team, p.Class, len(ids)))
		}
		players = append(players, cat.Class(engine.ClassID(p.Class)))
	}
	return players, nil
}

// compareRerun plays b, set up again from rep's header, round by round
// against the recording and prints "identical" or returns the first
// difference. failed, when not nil, reports a rule mod's rules failure.
func compareRerun(b battle.Stepper, rec *engine.Recorder, file string, rep *replay.Replay, stdout io.Writer, failed func() error) error {
	h := &rep.Header
	differs := func(round int, format string, args ...any) error {
		return &diffError{File: file, Round: round, Reason: fmt.Sprintf(format, args...)}
	}
	start, want0 := b.Snapshot(), rep.Timeline.At(0)
	if !reflect.DeepEqual(start.Cells, want0.Cells) || !reflect.DeepEqual(start.Marks, want0.Marks) {
		return differs(0, "the starting arena differs (different seed or placement rules)")
	}
	last := rep.Timeline.Last()
	for r := 1; r <= last; r++ {
		if !b.Step() {
			return differs(r, "the re-run ended after round %d, the replay goes on to round %d", r-1, last)
		}
		got := rec.Next()
		want, _ := rep.Timeline.Log(r)
		withheld(&got, &want, h.Withheld)
		// The wall's events first, then lost turns: when they differ they
		// are the likely cause.
		if !reflect.DeepEqual(got.Backstops, want.Backstops) {
			return differs(r, "backstop events differ: %s re-run, %s recorded", describeBackstops(got.Backstops), describeBackstops(want.Backstops))
		}
		if !reflect.DeepEqual(got.Answers, want.Answers) {
			return differs(r, "outside teams' decisions differ: %s", describeAnswers(got.Answers, want.Answers))
		}
		if !reflect.DeepEqual(got.Faults, want.Faults) {
			return differs(r, "lost turns (team, timeouts, errors) differ: %v re-run, %v recorded", got.Faults, want.Faults)
		}
		if !reflect.DeepEqual(got.Changes, want.Changes) {
			return differs(r, "%s", firstCell(b.Snapshot().Cells, rep.Timeline.At(r).Cells, h.Size))
		}
		if why := compareRounds(&got, &want); why != "" {
			return differs(r, "%s", why)
		}
	}
	ends := map[string]bool{"one team left": true, "no team left": true, "round limit": true, "game over": true, "rules failed": true}
	switch {
	case rep.Damage != nil:
		return fmt.Errorf("identical up to round %d, where the file is damaged: %w", last, rep.Damage)
	case rep.Result == nil:
		fmt.Fprintf(stdout, "identical: %d rounds (the recording stops there, unfinished)%s%s\n", last, replayedNote(rep), answeredNote(rep))
	case !b.Over() && ends[rep.Result.Reason]:
		return differs(last+1, "the replay ends after round %d (%s) but the re-run goes on", last, rep.Result.Reason)
	case h.Game != "" && b.Over() && b.Snapshot().Winner != rep.Result.Winner:
		return differs(last, "the re-run's winner is team %d, the replay's team %d", b.Snapshot().Winner, rep.Result.Winner)
	case failed != nil && failed() != nil && rep.Result.Reason != "rules failed":
		return differs(last, "the rules failed in the re-run: %v", failed())
	default:
		fmt.Fprintf(stdout, "identical: %d rounds, %s%s%s\n", last, describeResult(rep), replayedNote(rep), answeredNote(rep))
	}
	return nil
}

// replayedNote says, after "identical", how many backstop events the
// re-run took from the recording rather than played: the check vouches
// for everything but those.
func replayedNote(rep *replay.Replay) string {
	switch n := len(recordedBackstops(rep)); n {
	case 0:
		return ""
	case 1:
		return "; 1 backstop event taken as recorded"
	default:
		return fmt.Sprintf("; %d backstop events taken as recorded", n)
	}
}

func describeResult(rep *replay.Replay) string {
	res := rep.Result
	if res.Winner < 0 || res.Winner >= len(rep.Header.Players) {
		return "no winner (" + safe(res.Reason) + ")"
	}
	return fmt.Sprintf("team %d %s won (%s)", res.Winner, safe(rep.Header.Players[res.Winner].Name), safe(res.Reason))
}

// firstCell describes the first cell where two arenas differ.
func firstCell(got, want []int32, size int) string {
	name := func(t int32) string {
		if t < 0 {
			return "empty"
		}
		return fmt.Sprintf("team %d", t)
	}
	for i := range got {
		if got[i] != want[i] {
			return fmt.Sprintf("the arena differs first at row %d, column %d: %s in the re-run, %s recorded", i/size, i%size, name(got[i]), name(want[i]))
		}
	}
	return "the arena differs"
}

// withheld makes the re-run's round say what a copy that withholds some
// teams' words says (replay.Withhold): their problems and backstop events
// are compared without their messages, which the copy left out. Their
// print logs are never compared.
func withheld(got, want *engine.RoundLog, teams []int) {
	if len(teams) == 0 {
		return
	}
	for _, l := range []*engine.RoundLog{got, want} {
		l.Problems = slices.Clone(l.Problems)
		for i := range l.Problems {
			if slices.Contains(teams, l.Problems[i].Team) {
				l.Problems[i].Message = replay.WithheldText
			}
		}
		l.Backstops = slices.Clone(l.Backstops)
		for i := range l.Backstops {
			if slices.Contains(teams, l.Backstops[i].Team) {
				l.Backstops[i].Message = replay.WithheldText
			}
		}
	}
}

// compareRounds describes the first difference between a re-run round and
// the recorded one, or returns "".
func compareRounds(got, want *engine.RoundLog) string {
	parts := []struct {
		what      string
		got, want any
	}{
		{"births", got.Births, want.Births},
		{"deaths", got.Deaths, want.Deaths},
		{"script problems", got.Problems, want.Problems},
		{"marks", got.Marks, want.Marks},
		{"score columns", got.Values, want.Values},
	}
	for _, p := range parts {
		if !reflect.DeepEqual(p.got, p.want) {
			return fmt.Sprintf("%s differ: %v re-run, %v recorded", p.what, p.got, p.want)
		}
	}
	return ""
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// onlyFS shows only the named files of a folder.
type onlyFS struct {
	fs.FS
	names map[string]bool
}

func (o onlyFS) Open(name string) (fs.File, error) {
	if !o.names[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return o.FS.Open(name)
}

func (o onlyFS) ReadDir(name string) ([]fs.DirEntry, error) {
	all, err := fs.ReadDir(o.FS, name)
	var out []fs.DirEntry
	for _, e := range all {
		if name == "." && o.names[e.Name()] {
			out = append(out, e)
		}
	}
	return out, err
}

// recordedRules loads the rules.lua a SquareBattle replay was played under,
// refusing one that changed since.
func recordedRules(cfg config.Config, r *replay.Rules, differs func(int, string, ...any) error) (*luabind.Game, error) {
	sub, dir, err := gameFS(cfg, r.Game)
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(sub, luabind.RulesFile)
	if err != nil {
		return nil, differs(0, "%s/%s is missing", dir, luabind.RulesFile)
	}
	if got := sha(src); got != r.SHA256 {
		return nil, differs(0, "%s/%s changed: sha256 %.12s… on disk, %.12s… in the replay", dir, luabind.RulesFile, got, r.SHA256)
	}
	g, err := luabind.LoadGame(sub, dir, battle.Limits(cfg))
	if err != nil {
		return nil, differs(0, "%v", err)
	}
	if g.Info.Protocol != luabind.SquareBattleProtocol {
		return nil, differs(0, "%s is not rules for SquareBattle's players", dir)
	}
	return g, nil
}
