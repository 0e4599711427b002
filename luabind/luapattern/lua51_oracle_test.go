package luapattern

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgainstLua51 compares the package with the reference interpreter, when
// a "lua5.1" binary is on PATH (Debian package lua5.1); it is skipped
// otherwise, and the pm differential test and the case tables still run.
// Random patterns (malformed ones included) and subjects go through
// string.find, string.gsub and string.gmatch in one Lua process, and the
// rendered results must be identical, except where this package knowingly
// reports a malformed pattern that Lua 5.1 does not reach, or reaches only
// after another error (see the package documentation): then the only thing
// checked is that our error is one of the documented compile-time errors.
func TestAgainstLua51(t *testing.T) {
	lua, err := exec.LookPath("lua5.1")
	if err != nil {
		t.Skip("lua5.1 not installed")
	}
	n := 30000
	if testing.Short() {
		n = 3000
	}
	seed := uint64(51)
	// LUAPATTERN_ORACLE=cases,seed runs a bigger or different sample.
	if v := os.Getenv("LUAPATTERN_ORACLE"); v != "" {
		if _, err := fmt.Sscanf(v, "%d,%d", &n, &seed); err != nil {
			t.Fatalf("LUAPATTERN_ORACLE=%q: want cases,seed", v)
		}
	}
	r := rand.New(rand.NewPCG(seed, 5))
	type tc struct {
		kind, pat, subj, repl string
		init, max             int
	}
	var cases []tc
	for i := 0; i < n; i++ {
		alphabet := "abc1 ()"
		if i%5 == 4 {
			alphabet = "ab \x00\xe9A"
		}
		c := tc{pat: genPattern(r, patternAtoms, 1+i%12), subj: genSubject(r, alphabet, 4+i%17)}
		switch i % 3 {
		case 0:
			c.kind = "F"
			c.init = r.IntN(len(c.subj) + 1)
		case 1:
			c.kind = "G"
			c.repl = genPattern(r, []string{"x", "%0", "%1", "%2", "%%", "%a", "-"}, 3)
			c.max = r.IntN(4) - 1
		default:
			c.kind = "M"
		}
		cases = append(cases, c)
	}
	// A few hand-written cases the generator is unlikely to hit.
	cases = append(cases,
		tc{kind: "G", pat: "a", subj: "aa", repl: "x%", max: -1},
		tc{kind: "G", pat: "(a)()", subj: "aa", repl: "<%1%2>", max: -1},
		tc{kind: "G", pat: "", subj: "abc", repl: "-", max: -1},
		tc{kind: "G", pat: "%w*", subj: "ab cd", repl: "[%0]", max: -1},
		tc{kind: "G", pat: "^a*", subj: "aab", repl: "x", max: -1},
		tc{kind: "M", pat: "^a", subj: "a^aa", max: -1},
		tc{kind: "F", pat: "[a-%%]", subj: "x]"},
		tc{kind: "F", pat: "[a-%]]", subj: "x]"},
		tc{kind: "F", pat: "%f[%w]%w+", subj: "  hello world"},
		tc{kind: "F", pat: "%f[%z]", subj: "abc"},
		tc{kind: "F", pat: "%f[%Z]", subj: "abc"},
		tc{kind: "F", pat: "[\x80-\xff]+", subj: "ab\x80\xfe\xffc"},
		tc{kind: "F", pat: "%a+", subj: "\xe9t\xe9"},
	)

	// The cases of the hand-written tables: as TestFind, TestGsub and
	// TestGmatch check that we give what the tables say, this checks the
	// tables against Lua 5.1 itself.
	for _, c := range findCases {
		cases = append(cases, tc{kind: "F", pat: c.pat, subj: c.subj, init: c.init})
	}
	for _, c := range gsubCases {
		cases = append(cases, tc{kind: "G", pat: c.pat, subj: c.subj, repl: c.repl, max: c.max})
	}
	for _, c := range gmatchCases {
		cases = append(cases, tc{kind: "M", pat: c.pat, subj: c.subj})
	}

	dir := t.TempDir()
	in := filepath.Join(dir, "cases.txt")
	var sb strings.Builder
	hx := func(s string) string { return hex.EncodeToString([]byte(s)) }
	for _, c := range cases {
		fmt.Fprintf(&sb, "%s\t%s\t%s\t%s\t%d\t%d\n", c.kind, hx(c.pat), hx(c.subj), hx(c.repl), c.init, c.max)
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "oracle.lua")
	if err := os.WriteFile(script, []byte(oracleScript), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(lua, script, in).Output()
	if err != nil {
		t.Fatalf("lua5.1: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	quote := func(s string) string { return "x" + hx(s) }
	compileErrors := map[string]bool{
		msgEndsWithPercent: true, msgMissingBracket: true, msgFrontierBracket: true,
		msgUnbalanced: true, msgInvalidCapture: true, msgCaptureIndex: true,
		msgUnfinished: true, msgTooManyCaptures: true,
	}
	bad, lazy, matched := 0, 0, 0
	for i, c := range cases {
		if !sc.Scan() {
			t.Fatalf("lua output ended after %d of %d cases", i, len(cases))
		}
		want := sc.Text()
		var got string
		switch c.kind {
		case "F":
			got = findQ(c.pat, c.subj, c.init, quote)
		case "G":
			got = gsubQ(c.pat, c.subj, c.repl, c.max, quote)
		case "M":
			got = gmatchQ(c.pat, c.subj, quote)
		}
		if got == want {
			if want != "nil" && want != "" && !strings.HasPrefix(want, "error") {
				matched++
			}
			continue
		}
		if msg, ok := strings.CutPrefix(got, "error: "); ok && compileErrors[msg] {
			if _, err := Compile(c.pat); err != nil {
				// Lua 5.1 did not reach the malformed part, or reached
				// another error first (e.g. "invalid capture index" from
				// the replacement before "unfinished capture").
				lazy++
				continue
			}
		}
		bad++
		if bad <= 20 {
			t.Errorf("%s pattern %q subject %q init %d repl %q max %d:\n got %s\nwant %s",
				c.kind, c.pat, c.subj, c.init, c.repl, c.max, got, want)
		}
	}
	t.Logf("%d cases (%d with a match), %d mismatches, %d compile-time errors where Lua 5.1 went on or failed differently",
		len(cases), matched, bad, lazy)
}

// oracleScript reads the cases file and prints one result line per case, in
// the format of the Go helpers (strings as "x"+hex).
const oracleScript = `
local function unhex(h)
  return (h:gsub("..", function(x) return string.char(tonumber(x, 16)) end))
end
local function hex(s)
  return "x" .. (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end
local function pack(...) return { n = select("#", ...), ... } end
local function render(r, from)
  local t = {}
  for i = from, r.n do
    local v = r[i]
    if type(v) == "number" then t[#t + 1] = tostring(v) else t[#t + 1] = hex(v) end
  end
  return table.concat(t, " ")
end
for line in io.lines(arg[1]) do
  local f = {}
  for x in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = x end
  local kind, pat, subj, repl = f[1], unhex(f[2]), unhex(f[3]), unhex(f[4])
  local init, max = tonumber(f[5]), tonumber(f[6])
  local res
  if kind == "F" then
    local r = pack(pcall(string.find, subj, pat, init + 1))
    if not r[1] then res = "error: " .. tostring(r[2])
    elseif r[2] == nil then res = "nil"
    else res = render(r, 2) end
  elseif kind == "G" then
    local r
    if max < 0 then r = pack(pcall(string.gsub, subj, pat, repl))
    else r = pack(pcall(string.gsub, subj, pat, repl, max)) end
    if not r[1] then res = "error: " .. tostring(r[2]) else res = render(r, 2) end
  else
    local ok, err = pcall(function()
      local parts = {}
      local it = subj:gmatch(pat)
      while true do
        local r = pack(it())
        if r[1] == nil then break end
        parts[#parts + 1] = render(r, 1)
      end
      res = table.concat(parts, " | ")
    end)
    -- The iterator is called from Lua code, so the message has a position.
    if not ok then res = "error: " .. tostring(err):gsub("^[^:]*:%d+: ", "") end
  end
  io.write(res, "\n")
end
`
