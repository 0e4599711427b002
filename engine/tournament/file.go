package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// FileVersion is the version of the results file this package writes and
// reads.
const FileVersion = 1

// File is a results file: the tournament's parameters and the results of
// the games one run played, in game order. A whole run has Shard 0/1.
type File struct {
	Version int      `json:"version"`
	Params  Params   `json:"params"`
	Shard   Shard    `json:"shard"`
	Results []Result `json:"results"`
}

// Shard is one slice of a schedule: the games whose index modulo Count is
// Index.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Whole is the shard that holds every game.
var Whole = Shard{Index: 0, Count: 1}

// Has reports whether the shard holds the game.
func (s Shard) Has(game int) bool { return game%s.Count == s.Index }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Games returns the games of the schedule that belong to the shard.
func (s Shard) Games(schedule []Game) []Game {
	var out []Game
	for _, g := range schedule {
		if s.Has(g.Index) {
			out = append(out, g)
		}
	}
	return out
}

// Environment variables that hold a batch system's task index, tried in
// this order by ParseShard's "auto".
const (
	EnvKubernetesIndex = "JOB_COMPLETION_INDEX" // Kubernetes Indexed Job, 0-based
	EnvSlurmIndex      = "SLURM_ARRAY_TASK_ID"  // Slurm job array
	EnvSlurmMin        = "SLURM_ARRAY_TASK_MIN" // its first id, subtracted (so --array=1-4 works)
)

// ParseShard reads "I/N" (0 <= I < N) or "auto/N", where auto takes I from
// the Kubernetes or Slurm task index found through getenv.
func ParseShard(s string, getenv func(string) string) (Shard, error) {
	bad := func(reason string) (Shard, error) {
		return Shard{}, &ParamError{"shard", fmt.Sprintf("%q: %s", s, reason)}
	}
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return bad("want I/N, e.g. 0/4, or auto/N")
	}
	n, err := strconv.Atoi(ns)
	if err != nil || n < 1 {
		return bad("N must be a whole number of at least 1")
	}
	if is == "auto" {
		switch {
		case getenv(EnvKubernetesIndex) != "":
			is = getenv(EnvKubernetesIndex)
		case getenv(EnvSlurmIndex) != "":
			id, err1 := strconv.Atoi(getenv(EnvSlurmIndex))
			first, err2 := 0, error(nil)
			if m := getenv(EnvSlurmMin); m != "" {
				first, err2 = strconv.Atoi(m)
			}
			if err1 != nil || err2 != nil {
				return bad(fmt.Sprintf("%s=%q and %s=%q are not numbers", EnvSlurmIndex, getenv(EnvSlurmIndex), EnvSlurmMin, getenv(EnvSlurmMin)))
			}
			is = strconv.Itoa(id - first)
		default:
			return bad(fmt.Sprintf("auto needs %s (Kubernetes Indexed Job) or %s (Slurm array) in the environment", EnvKubernetesIndex, EnvSlurmIndex))
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return bad(fmt.Sprintf("the index %q must be a whole number from 0 to %d", is, n-1))
	}
	return Shard{Index: i, Count: n}, nil
}

// Encode writes f as indented JSON.
func (f *File) Encode(w io.Writer) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// ErrBadFile is wrapped by every error about a results file that cannot be
// read or used.
var ErrBadFile = errors.New("bad results file")

// FileError says what is wrong with one results file.
type FileError struct {
	File   string
	Reason string
}

func (e *FileError) Error() string { return e.File + ": " + e.Reason }

// Unwrap lets callers test with errors.Is(err, ErrBadFile).
func (e *FileError) Unwrap() error { return ErrBadFile }

// Decode reads a results file and checks it against its own schedule:
// the version, the parameters, and that every result is a game of its
// shard, once, with the schedule's seed and team count. name is the file
// as shown in errors.
func Decode(name string, r io.Reader) (*File, error) {
	// The decoder would hold the whole file too; the shape is read from
	// it before anything is decoded (see scanFile).
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &FileError{name, err.Error()}
	}
	sh := scanFile(data)
	if err := sh.check(); err != nil {
		return nil, &FileError{name, err.Error()}
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, &FileError{name, "not a results file: " + err.Error()}
	}
	if f.Version != FileVersion {
		return nil, &FileError{name, fmt.Sprintf("results file version %d; this program reads version %d", f.Version, FileVersion)}
	}
	if err := f.Params.Check(); err != nil {
		return nil, &FileError{name, err.Error()}
	}
	if f.Shard.Count < 1 || f.Shard.Index < 0 || f.Shard.Index >= f.Shard.Count {
		return nil, &FileError{name, fmt.Sprintf("shard %s is not a shard", f.Shard)}
	}
	if err := f.check(f.Params.Schedule()); err != nil {
		return nil, &FileError{name, err.Error()}
	}
	return &f, nil
}

// check tests that the results are exactly the shard's games, in order.
func (f *File) check(schedule []Game) error {
	want := f.Shard.Games(schedule)
	for i, r := range f.Results {
		if r.Game < 0 || r.Game >= len(schedule) {
			return fmt.Errorf("game %d is not in the schedule of %d battles", r.Game, len(schedule))
		}
		g := schedule[r.Game]
		switch {
		case !f.Shard.Has(r.Game):
			return fmt.Errorf("game %d is not in shard %s", r.Game, f.Shard)
		case i > 0 && r.Game <= f.Results[i-1].Game:
			return fmt.Errorf("game %d is out of order or repeated", r.Game)
		case r.Seed != g.Seed:
			return fmt.Errorf("game %d has seed %d, but the schedule says %d", r.Game, r.Seed, g.Seed)
		case r.Error == "" && len(r.Teams) != len(g.Seats):
			return fmt.Errorf("game %d has %d teams, but the schedule seats %d", r.Game, len(r.Teams), len(g.Seats))
		}
		for t, tr := range r.Teams {
			if len(tr.Values) != len(f.Params.Columns) {
				return fmt.Errorf("game %d: team %d has %d score values, but the game has %d columns", r.Game, t, len(tr.Values), len(f.Params.Columns))
			}
		}
	}
	if len(f.Results) < len(want) {
		return fmt.Errorf("shard %s lacks %s", f.Shard, listGames(missing(want, f.Results), len(schedule)))
	}
	return nil
}

// missing lists the games of want that have no result.
func missing(want []Game, have []Result) []int {
	got := make(map[int]bool, len(have))
	for _, r := range have {
		got[r.Game] = true
	}
	var out []int
	for _, g := range want {
		if !got[g.Index] {
			out = append(out, g.Index)
		}
	}
	return out
}

// listGames names at most a few games: "games 3, 7 and 12 of 40".
func listGames(games []int, total int) string {
	const most = 5
	var b strings.Builder
	if len(games) == 1 {
		b.WriteString("game ")
	} else {
		b.WriteString("games ")
	}
	for i, g := range games[:min(len(games), most)] {
		switch {
		case i == 0:
		case i == len(games)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(g))
	}
	if len(games) > most {
		fmt.Fprintf(&b, " and %d more", len(games)-most)
	}
	fmt.Fprintf(&b, " of %d", total)
	return b.String()
}

// ErrMerge is wrapped by every error Merge returns.
var ErrMerge = errors.New("cannot merge results")

// MismatchError reports a file from another tournament.
type MismatchError struct {
	File, Other string // the file that differs, and the first file
	Field       string // e.g. "seed", "players", "setup arena.size"
	Value       string // in File
	OtherValue  string // in Other
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s: not the same tournament as %s: %s is %s there, %s here", e.File, e.Other, e.Field, e.OtherValue, e.Value)
}

// Unwrap lets callers test with errors.Is(err, ErrMerge).
func (e *MismatchError) Unwrap() error { return ErrMerge }

// DuplicateError reports a game that two files both hold.
type DuplicateError struct {
	File, Other string
	Game        int
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s: game %d is also in %s (the same shard given twice?)", e.File, e.Game, e.Other)
}

// Unwrap lets callers test with errors.Is(err, ErrMerge).
func (e *DuplicateError) Unwrap() error { return ErrMerge }

// MissingError reports games that no file holds.
type MissingError struct {
	Games  []int
	Total  int
	Shards []Shard // the shards no file was, when every file was cut the same way
}

func (e *MissingError) Error() string {
	msg := listGames(e.Games, e.Total) + " are in no file"
	if len(e.Games) == 1 {
		msg = listGames(e.Games, e.Total) + " is in no file"
	}
	if len(e.Shards) > 0 {
		names := make([]string, len(e.Shards))
		for i, s := range e.Shards {
			names[i] = s.String()
		}
		msg += "; missing shard " + strings.Join(names, ", ")
	}
	return msg
}

// Unwrap lets callers test with errors.Is(err, ErrMerge).
func (e *MissingError) Unwrap() error { return ErrMerge }

// Merge combines the files of one tournament's shards into one whole File.
// names[i] names files[i] in errors. It refuses files from different
// tournaments, a game held twice, and games held by none.
func Merge(names []string, files []*File) (*File, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no files", ErrMerge)
	}
	first := files[0]
	for i, f := range files[1:] {
		if field, a, b, ok := diff(f.Params, first.Params); ok {
			return nil, &MismatchError{File: names[i+1], Other: names[0], Field: field, Value: a, OtherValue: b}
		}
	}
	schedule := first.Params.Schedule()
	owner := make([]int, len(schedule)) // file index + 1 of each game
	out := &File{Version: FileVersion, Params: first.Params, Shard: Whole, Results: make([]Result, len(schedule))}
	for i, f := range files {
		for _, r := range f.Results {
			if o := owner[r.Game]; o != 0 {
				return nil, &DuplicateError{File: names[i], Other: names[o-1], Game: r.Game}
			}
			owner[r.Game] = i + 1
			out.Results[r.Game] = r
		}
	}
	var lost []int
	for g, o := range owner {
		if o == 0 {
			lost = append(lost, g)
		}
	}
	if len(lost) > 0 {
		return nil, &MissingError{Games: lost, Total: len(schedule), Shards: missingShards(files)}
	}
	return out, nil
}

// missingShards lists the shards nobody ran, when all files agree on the
// number of shards.
func missingShards(files []*File) []Shard {
	n := files[0].Shard.Count
	seen := make([]bool, n)
	for _, f := range files {
		if f.Shard.Count != n {
			return nil
		}
		seen[f.Shard.Index] = true
	}
	var out []Shard
	for i, ok := range seen {
		if !ok {
			out = append(out, Shard{i, n})
		}
	}
	return out
}

// diff returns the first field in which a differs from b.
func diff(a, b Params) (field, va, vb string, differs bool) {
	fields := []struct {
		name   string
		va, vb any
	}{
		{"game", orNone(a.Game, a.Game != ""), orNone(b.Game, b.Game != "")},
		{"format", a.Format, b.Format},
		{"games", a.Games, b.Games},
		{"seed", a.Seed, b.Seed},
		{"players", playerIDs(a.Players), playerIDs(b.Players)},
		{"columns", strings.Join(a.Columns, " "), strings.Join(b.Columns, " ")},
	}
	for _, f := range fields {
		if sa, sb := fmt.Sprint(f.va), fmt.Sprint(f.vb); sa != sb {
			return f.name, sa, sb, true
		}
	}
	keys := make([]string, 0, len(a.Setup)+len(b.Setup))
	for k := range a.Setup {
		keys = append(keys, k)
	}
	for k := range b.Setup {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, oka := a.Setup[k]
		vb, okb := b.Setup[k]
		if va != vb || oka != okb {
			return k, orNone(va, oka), orNone(vb, okb), true
		}
	}
	return "", "", "", false
}

func orNone(v string, ok bool) string {
	if !ok {
		return "absent"
	}
	return v
}

func playerIDs(ps []Player) string {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return strings.Join(ids, " ")
}
