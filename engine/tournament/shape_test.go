package tournament

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
)

// TestHostileShapes: a results file's lists are counted, and their
// elements' members, before anything is decoded, so a file of tiny
// elements is refused at about its own size in memory, whichever list
// holds them and however its keys are spelt; an honest file, however
// large, still decodes.
func TestHostileShapes(t *testing.T) {
	p := params(KOTH, 3, 4)
	honest := func() []byte {
		f := &File{Version: FileVersion, Params: p, Shard: Whole, Results: Run(p.Schedule(), fakePlay, RunOptions{})}
		var buf bytes.Buffer
		if err := f.Encode(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	// many repeats elem, comma-separated.
	many := func(elem string, n int) string {
		return strings.TrimSuffix(strings.Repeat(elem+",", n), ",")
	}
	const n = 1 << 19 // about 1.5 MB of "{}," : some 60 MB if decoded
	file := func(results string) []byte {
		return []byte(`{"version":1,"params":{"format":"koth","games":3,"seed":42,"players":[{"id":"a","name":"A"},{"id":"b","name":"B"}]},"shard":{"index":0,"count":1},"results":` + results + `}`)
	}
	team := `{"squares":1,"survived":2,"births":0,"kills":0,"deaths":0,"collisions":0,"timeouts":0,"errors":0}`
	tests := []struct {
		name string
		data []byte
		want string // in the error; empty: decodes
	}{
		{"honest", honest(), ""},
		{"empty results", file(`[` + many(`{}`, n) + `]`), "a result with 0 members"},
		{"results of nulls", file(`[` + many(`null`, n) + `]`), "a result that is not an object"},
		{"teams of nulls", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + many(`null`, n) + `]}]`), "a team's result that is not an object"},
		{"teams of numbers", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + many(`0`, n) + `]}]`), "a team's result that is not an object"},
		{"players of strings", []byte(`{"version":1,"params":{"format":"koth","games":1,"players":[` + many(`""`, n) + `]}}`), "a player that is not an object"},
		{"teams of lists", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + many(`[]`, n) + `]}]`), "a team's result that is not an object"},
		{"empty teams", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + many(`{}`, n) + `]}]`), "a team's result with 0 members"},
		{"teams one member short", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + many(`{"squares":1,"survived":2,"births":0,"kills":0,"deaths":0,"collisions":0,"timeouts":0}`, 4) + `]}]`), "a team's result with 7 members"},
		{"upper-case keys", file(`[{"GAME":0,"Seed":1,"rounds":1,"Teams":[` + many(`{}`, n) + `]}]`), "a team's result with 0 members"},
		{"escaped keys", []byte(`{"version":1,"\u0072esults":[{"game":0,"seed":1,"rounds":1,"te\u0061ms":[` + many(`{}`, n) + `]}]}`), "a team's result with 0 members"},
		{"a long s in a key", file(`[{"game":0,"seed":1,"rounds":1,"teamſ":[` + many(`{}`, n) + `]}]`), "a team's result with 0 members"},
		{"results before params", []byte(`{"version":1,"results":[{"game":0,"seed":1,"rounds":1,"teams":[` + team + `]}],"params":{"format":"koth","games":1,"players":[` + many(`{}`, n) + `]}}`), "a player with 0 members"},
		{"empty players", []byte(`{"version":1,"params":{"format":"koth","games":1,"players":[` + many(`{}`, n) + `]}}`), "a player with 0 members"},
		{"too many columns", []byte(`{"version":1,"params":{"format":"koth","games":1,"columns":[` + many(`"x"`, engine.MaxColumns+1) + `]}}`), "65 score columns"},
		{"too many values", file(`[{"game":0,"seed":1,"rounds":1,"teams":[` + strings.Replace(team, `"errors":0`, `"errors":0,"values":[`+many(`0`, n)+`]`, 1) + `]}]`), "score columns (at most 64)"},
		{"teams nested in a key the file does not have", []byte(`{"version":1,"other":{"teams":[` + many(`{}`, 4) + `]}}`), "unknown field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Decode("x.json", bytes.NewReader(tc.data))
			runtime.ReadMemStats(&after)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrBadFile) || !strings.HasPrefix(err.Error(), "x.json: ") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line naming x.json and containing %q", err, tc.want)
			}
			// The file read, and a few times its size at most for what
			// the checks after the shape decode.
			if got, most := after.TotalAlloc-before.TotalAlloc, uint64(8*len(tc.data)+8<<20); got > most {
				t.Errorf("refusing %d bytes allocated %d (at most %d)", len(tc.data), got, most)
			}
		})
	}
}

// TestShapeBounds: the counts are held to what any tournament can hold.
func TestShapeBounds(t *testing.T) {
	tests := []struct {
		sh   fileShape
		want string
	}{
		{fileShape{players: 4, columns: engine.MaxColumns, results: MaxBattles, teams: MaxSeats, mostValues: engine.MaxColumns}, ""},
		{fileShape{players: MaxSeats + 1}, "players"},
		{fileShape{columns: engine.MaxColumns + 1}, "score columns"},
		{fileShape{mostValues: engine.MaxColumns + 1}, "score columns"},
		{fileShape{results: MaxBattles + 1}, "results (a tournament plays at most"},
		{fileShape{teams: MaxSeats + 1}, "teams' results"},
		{fileShape{thin: "a result with 0 members (it has at least 3)"}, "not what this program writes"},
	}
	for _, tc := range tests {
		err := tc.sh.check()
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.sh, err, tc.want)
		}
	}
}

// TestScanFile: the counts scanFile reads from an honest file are its
// lists' lengths.
func TestScanFile(t *testing.T) {
	p := params(RoundRobin, 2, 3)
	p.Columns = []string{"score", "food"}
	f := &File{Version: FileVersion, Params: p, Shard: Whole, Results: Run(p.Schedule(), fakePlay, RunOptions{})}
	f.Results[0].Teams[1].Values = []int{1, 2}
	var buf bytes.Buffer
	if err := f.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	sh := scanFile(buf.Bytes())
	want := fileShape{players: 3, columns: 2, results: 12, teams: 24, mostTeams: 2, mostValues: 2}
	if sh != want {
		t.Errorf("shape %+v, want %+v", sh, want)
	}
}
