package replay

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestScanShape: the lists of a round line are counted as encoding/json
// will decode them: keys matched as it matches them, text and nesting
// skipped, lists in l's and a's objects added up.
func TestScanShape(t *testing.T) {
	cases := []struct {
		line       string
		top        map[byte]int
		printed    map[byte]int
		answersKey map[byte]int
	}{
		{`{"r":1}`, nil, nil, nil},
		{`{"r":1,"c":[]}`, nil, nil, nil},
		{`{"r":1,"c":[1,0,2,-1],"b":[0,5,0]}`, map[byte]int{'c': 4, 'b': 3}, nil, nil},
		{`{"P":[{},{}],"\u0070":[{}]}`, map[byte]int{'p': 3}, nil, nil},
		{`{"p":[{"msg":"a],[{\"x\":[1,2]}"},{"msg":"\\"}]}`, map[byte]int{'p': 2}, nil, nil},
		{`{"zz":[1,2,3],"w":[ {} , {} ]}`, map[byte]int{'w': 2}, nil, nil},
		{`{"l":[{"t":0,"l":["a","b"]},{"t":1,"L":["c"],"x":3}]}`, map[byte]int{'l': 2}, map[byte]int{'l': 3}, nil},
		{`{"a":[{"t":0,"i":[0,1,2,3,4],"p":[{},{}]},{"t":1,"v":[null,{"x":[1]},[2,3]],"u":[0,0,0,0,0,0]}]}`,
			map[byte]int{'a': 2}, nil, map[byte]int{'i': 5, 'p': 2, 'v': 3, 'u': 6}},
		{`{"a":[{"ı":[1,2]}]}`, map[byte]int{'a': 1}, nil, map[byte]int{'i': 2}}, // dotless i folds to i, as encoding/json matches it
		{`{"c":[[[[[[[[1]]]]]]],2]}`, map[byte]int{'c': 2}, nil, nil},
	}
	for _, c := range cases {
		sh := scanShape([]byte(c.line))
		check := func(what string, got [26]int, want map[byte]int) {
			for k := range got {
				if w := want[byte('a'+k)]; got[k] != w {
					t.Errorf("%s: %s[%c] = %d, want %d", c.line, what, 'a'+k, got[k], w)
				}
			}
		}
		check("top", sh.top, c.top)
		check("printed", sh.printed, c.printed)
		check("answers", sh.answers, c.answersKey)
	}
}

// TestHostileRoundLists: a compressed file of a few kilobytes may hold a
// round line of many megabytes (a line may be as long as what a round of
// its arena and teams can name). Lists of tiny elements in it ("{}",
// "0") cost tens of times their text once decoded; each is refused,
// undecoded, past what a round of the battle holds. What Read allocates
// stays within the bound of a file read and a few times the line.
func TestHostileRoundLists(t *testing.T) {
	if testing.Short() {
		t.Skip("reads lines of megabytes")
	}
	const text = 8 << 20 // the hostile line's length, about
	objs := func(key string) string {
		return `"` + key + `":[` + strings.TrimSuffix(strings.Repeat("{},", text/3), ",") + "]"
	}
	nums := func(key string) string {
		return `"` + key + `":[` + strings.TrimSuffix(strings.Repeat("0,", text/2), ",") + "]"
	}
	// headers: an empty 2000×2000 arena but for one square; a full one of
	// one team; 1024 teams on a small arena, some decided outside; a rule
	// mod's 2000×2000 arena.
	players := func(n int, outside string) string {
		ps := make([]string, n)
		for i := range ps {
			ps[i] = fmt.Sprintf(`{"team":%d,"class":0%s}`, i, outside)
		}
		return strings.Join(ps, ",")
	}
	head := func(size int, game, ps, start string) string {
		return fmt.Sprintf(`{"squarebattle_replay":1,"size":%d,"rounds":10,%s"classes":[{"id":"w","file":"w.lua","sha256":"00"}],"players":[%s],"start":%s}`+"\n",
			size, game, ps, start)
	}
	sparse := head(2000, "", players(1, ""), fmt.Sprintf("[0,1,-1,%d]", 2000*2000-1))
	full := head(2000, "", players(1, ""), fmt.Sprintf("[0,%d]", 2000*2000))
	crowd := head(64, "", players(1024, `,"outside":"bot"`), fmt.Sprintf("[%s,-1,%d]", strings.TrimSuffix(strings.Repeat("0,1,", 1), ","), 64*64-1))
	mod := head(2000, `"game":"g","columns":["s"],`, players(2, `,"outside":"bot"`), fmt.Sprintf("[0,1,1,1,-1,%d]", 2000*2000-2))
	cases := []struct {
		name, header, round, want string
	}{
		{"problems, sparse arena", sparse, objs("p"), "problems (p) in one round"},
		{"problems, full arena", full, objs("p"), "problems (p) in one round"},
		{"problems, 1024 teams", crowd, objs("p"), "problems (p) in one round"},
		{"backstop events", sparse, objs("w"), "backstop events (w) in one round"},
		{"printed lines' teams", crowd, objs("l"), "teams' printed lines (l) in one round"},
		{"printed lines", crowd, `"l":[{"t":0,"l":[` + strings.TrimSuffix(strings.Repeat(`"",`, text/3), ",") + `]}]`, "printed lines (l.l) in one round"},
		{"records of answers", crowd, objs("a"), "records of answers in one round"},
		{"records of answers, none outside", sparse, objs("a"), "records of answers in one round"},
		{"answers' problems", crowd, `"a":[{"t":0,"p":[` + strings.TrimSuffix(strings.Repeat("{},", text/3), ",") + `]}]`, "answers' problems (a.p) in one round"},
		{"intents", crowd, `"a":[{"t":0,` + nums("i") + `}]`, "intents (a.i) in one round"},
		{"answers of a rule mod", mod, `"a":[{"t":0,"v":[` + strings.TrimSuffix(strings.Repeat("null,", text/5), ",") + `]}]`, "answers (a.v) in one round"},
		{"births", sparse, nums("b"), "births (b) in one round"},
		{"deaths", sparse, nums("d"), "deaths (d) in one round"},
		{"faults", crowd, nums("f"), "faults (f) in one round"},
		{"score columns", mod, nums("v"), "score columns (v) in one round"},
		{"births in a rule mod", mod, nums("b"), "births (b) in one round"},
		{"upper-case key", sparse, objs("P"), "problems (p) in one round"},
		{"escaped key", sparse, objs(`\u0077`), "backstop events (w) in one round"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, quiet := readMeasured(gzipped([]byte(c.header + "{\"r\":1}\n"))) // the arena's cost
			line := `{"r":1,` + c.round + "}\n"
			data := gzipped([]byte(c.header + line))
			rep, err, n := readMeasured(data)
			if err != nil {
				t.Fatal(err)
			}
			if bound := quiet + refusedBound(data) + 4*uint64(len(line)); n > bound {
				t.Errorf("allocated %d bytes reading %d (a line of %d); want at most %d", n, len(data), len(line), bound)
			}
			var fe *FormatError
			if !errors.As(rep.Damage, &fe) || fe.Line != 2 || !strings.Contains(fe.Error(), c.want) || strings.Contains(fe.Error(), "\n") {
				t.Fatalf("damage %v; want one line on line 2 saying %q", rep.Damage, c.want)
			}
			if rep.Timeline.Last() != 0 {
				t.Errorf("plays up to round %d, want 0", rep.Timeline.Last())
			}
			t.Logf("%d bytes: %d allocated: %v", len(data), n, fe)
		})
	}
}
