package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	lua "github.com/yuin/gopher-lua"
)

// The map of the sandbox: docs/sandbox.md has a row for every value a
// player's or a rules script's code can reach. TestSandboxMap walks both
// environments as a script would (globals, library tables, the string
// metatable, the game tables handed to rules) and fails when something
// reachable has no row, when a row names something that is no longer
// reachable, or when a row's "by" column does not say who really
// implements the function (the project, or gopher-lua): a gopher-lua upgrade
// or a new API function cannot slip in unreviewed.

// reachedValue is one value found by the walk.
type reachedValue struct {
	kind string // Lua type
	impl string // for Go functions: "project" or "gopher-lua"
	fn   string // for Go functions: the Go function's name
}

// walkEnv records every value reachable from roots under a dotted path:
// a table reached by two paths is walked once, under the first path in
// sorted order. Metatables are walked as "<path>.(metatable)".
func walkEnv(roots []envRoot) map[string]reachedValue {
	out := map[string]reachedValue{}
	seen := map[*lua.LTable]bool{}
	seenFn := map[*lua.LFunction]bool{}
	var visit func(path string, v lua.LValue)
	visit = func(path string, v lua.LValue) {
		switch v := v.(type) {
		case *lua.LTable:
			if seen[v] {
				return
			}
			seen[v] = true
			if path != "" {
				out[path] = reachedValue{kind: "table"}
			}
			var keys []string
			vals := map[string]lua.LValue{}
			for k, val := v.Next(lua.LNil); k != lua.LNil; k, val = v.Next(k) {
				ks := fmt.Sprint(k)
				if s, ok := k.(lua.LString); ok {
					ks = string(s)
				}
				keys = append(keys, ks)
				vals[ks] = val
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				visit(p, vals[k])
			}
			if v.Metatable != lua.LNil && v.Metatable != nil {
				visit(path+".(metatable)", v.Metatable)
			}
		case *lua.LFunction:
			if seenFn[v] && strings.HasPrefix(path, "(") {
				return // a private copy of a library already mapped under its name
			}
			seenFn[v] = true
			r := reachedValue{kind: "function", impl: "lua"}
			if v.IsG {
				r.fn = runtime.FuncForPC(reflect.ValueOf(v.GFunction).Pointer()).Name()
				r.impl = "project"
				if strings.HasPrefix(r.fn, "github.com/yuin/gopher-lua.") {
					r.impl = "gopher-lua"
				}
			}
			out[path] = r
		default:
			out[path] = reachedValue{kind: v.Type().String()}
		}
	}
	for _, r := range roots {
		visit(r.name, r.v)
	}
	return out
}

// envRoot is a starting point of the walk; the globals are the root
// named "", so their paths are plain names ("print", "string.format").
type envRoot struct {
	name string
	v    lua.LValue
}

// sandboxRoots are the environments to map: a player's globals, the string
// metatable, and the game tables of rule mods and of SquareBattle's rules in
// Lua.
func sandboxRoots(t *testing.T) []envRoot {
	t.Helper()
	cat := catalogOf(t, map[string]string{"p.lua": `return { name = "P", run = function() end }`}, DefaultLimits())
	mods, err := LoadCatalog(CatalogOptions{FS: fstest.MapFS{
		"rules.lua": {Data: []byte(`return { name = "G", columns = {"score"}, size = function() return 4 end, setup = function() end, turns = function() end, resolve = function() end }`)},
		"res.lua":   {Data: []byte(`return { protocol = "squarebattle", place = function() return {0} end, resolve = function() end, over = function() end }`)},
	}, Dir: "m", Entry: "-"})
	if err != nil {
		t.Fatal(err)
	}
	id, _ := cat.classID("p")
	tm := NewTeam(TeamOptions{Catalog: cat, Size: 4, Teams: 1, Killers: []string{""}})
	t.Cleanup(tm.Close)
	cs := tm.class(id)
	if cs.err != "" {
		t.Fatal(cs.err)
	}
	roots := []envRoot{{"", cs.env}}

	rid, _ := mods.classID("rules")
	r, err := NewRules(mods, rid, 1, 2, 10000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	roots = append(roots, envRoot{"game", r.game})

	sid, _ := mods.classID("res")
	res, err := NewResolver(mods, sid, []string{"p"}, true, 10000)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(res.Close)
	roots = append(roots, envRoot{"resolver", res.game})
	// getmetatable("") is false (isolate.go); what method calls on strings
	// reach is the metatable's __index, read raw. Last, so that tables it
	// shares with the globals keep their own names.
	return append(roots, envRoot{"(string methods)", tm.L.GetMetaField(lua.LString(""), "__index")})
}

var mapRow = regexp.MustCompile("^\\|\\s*((?:`[^`]+`(?:,\\s*)?)+)\\s*\\|\\s*([^|]+?)\\s*\\|")
var mapName = regexp.MustCompile("`([^`]+)`")

// readSandboxMap reads the rows of docs/sandbox.md's tables: the names in
// the first column and who implements them (the second column).
func readSandboxMap(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile("../docs/sandbox.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(src), "\n") {
		m := mapRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, n := range mapName.FindAllStringSubmatch(m[1], -1) {
			rows[n[1]] = strings.TrimSpace(m[2])
		}
	}
	return rows
}

func TestSandboxMap(t *testing.T) {
	reached := walkEnv(sandboxRoots(t))
	rows := readSandboxMap(t)
	var missing []string
	for path, r := range reached {
		if r.kind == "table" {
			continue // a table is mapped through its entries
		}
		by, ok := rows[path]
		switch {
		case !ok:
			missing = append(missing, fmt.Sprintf("%s (%s %s %s)", path, r.kind, r.impl, r.fn))
		case r.kind == "function" && by != r.impl:
			t.Errorf("docs/sandbox.md says %s is implemented by %q; it is %s (%s)", path, by, r.impl, r.fn)
		case r.kind != "function" && by != "value":
			t.Errorf("docs/sandbox.md: %s is a %s; its second column should say \"value\", not %q", path, r.kind, by)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("reachable but not in docs/sandbox.md: %s", m)
	}
	for name := range rows {
		if _, ok := reached[name]; !ok {
			t.Errorf("docs/sandbox.md has a row for %s, which no script can reach", name)
		}
	}
	checkPinnedBy(t)
}

var (
	pinnedTest = regexp.MustCompile(`\bTest[A-Z]\w*`)
	pinnedFile = regexp.MustCompile(`\b(hostile(?:-rules)?/[\w.*-]+\.lua)`)
)

// checkPinnedBy checks the last column of every row of docs/sandbox.md:
// each Test name must be a test of the repository, each hostile/… file a
// file under luabind/testdata.
func checkPinnedBy(t *testing.T) {
	src, err := os.ReadFile("../docs/sandbox.md")
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{}
	var files []string
	for _, pattern := range []string{"../*/*_test.go", "../*/*/*_test.go", "../*/*/*/*_test.go", "../*/*/*/*/*_test.go"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`(?m)^func (Test\w+)\(`).FindAllSubmatch(b, -1) {
			tests[string(m[1])] = true
		}
	}
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cols := strings.Split(strings.Trim(line, "| "), "|")
		last := cols[len(cols)-1]
		for _, name := range pinnedTest.FindAllString(last, -1) {
			if !tests[name] {
				t.Errorf("docs/sandbox.md: %s is pinned by %s, which is not a test", strings.TrimSpace(cols[0]), name)
			}
		}
		for _, m := range pinnedFile.FindAllStringSubmatch(last, -1) {
			if found, _ := filepath.Glob("testdata/" + m[1]); len(found) == 0 {
				t.Errorf("docs/sandbox.md: %s is pinned by %s, which is not in luabind/testdata", strings.TrimSpace(cols[0]), m[1])
			}
		}
	}
}
