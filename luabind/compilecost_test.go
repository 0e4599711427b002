package luabind

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// gen builds a script from a header, n lines made by line(i), and a footer.
func gen(head string, n int, line func(i int) string, foot string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	b.WriteString(foot)
	b.WriteString("\nreturn { name = 'X', run = function() return WAIT end }\n")
	return []byte(b.String())
}

// TestCompileWorkBounded: every way of making gopher-lua's compiler scan
// long lists is refused before compiling, whatever the file's size; each
// variant is refused with one line naming the file and a line, and the
// walk that refuses it stops at the bound.
func TestCompileWorkBounded(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want string
	}{
		{"distinct numbers in a table", gen("local t = {", 40000, func(i int) string { return fmt.Sprintf("%d.5,", i) }, "}"), "too long to compile"},
		{"distinct numbers as statements", gen("local x\n", 30000, func(i int) string { return fmt.Sprintf("x = %d.25", i) }, ""), "too long to compile"},
		{"distinct strings", gen("local t = {", 30000, func(i int) string { return fmt.Sprintf("'s%d',", i) }, "}"), "too long to compile"},
		{"distinct global names", gen("", 30000, func(i int) string { return fmt.Sprintf("g%d = 1", i) }, ""), "too long to compile"},
		{"distinct field names", gen("local t = {}\n", 30000, func(i int) string { return fmt.Sprintf("t.f%d = 1", i) }, ""), "too long to compile"},
		{"distinct method names", gen("local t = {}\n", 30000, func(i int) string { return fmt.Sprintf("t:m%d()", i) }, ""), "too long to compile"},
		{"long strings of one length", gen("local t = {", 3000, func(i int) string { return fmt.Sprintf("'%s%06d',", strings.Repeat("a", 2000), i) }, "}"), "too long to compile"},
		{"numbers spread over functions", gen("", 60, func(i int) string {
			var b strings.Builder
			fmt.Fprintf(&b, "local function f%d() return {", i)
			for j := range 2000 {
				fmt.Fprintf(&b, "%d.5,", i*2000+j)
			}
			b.WriteString("} end")
			return b.String()
		}, ""), "too long to compile"},
		{"many locals in sight of many names", gen("", 1, func(int) string {
			var b strings.Builder
			for d := range 30 { // nested functions, each with 150 locals
				fmt.Fprintf(&b, "local function f%d() ", d)
				for k := range 150 {
					fmt.Fprintf(&b, "local v%d_%d = 0 ", d, k)
				}
			}
			for range 3000 {
				b.WriteString("x = y ")
			}
			for range 30 {
				b.WriteString("end ")
			}
			return b.String()
		}, ""), "too long to compile"},
		{"201 locals in the main chunk", gen("", 199, func(i int) string { return fmt.Sprintf("local a%d = %d", i, i) }, ""), "main function has more than 200 local variables"},
		{"201 locals in a function", gen("local function f()\n", 201, func(i int) string { return fmt.Sprintf("local a%d = %d", i, i) }, "end"), "function at line 1 has more than 200 local variables"},
		{"a for loop's hidden locals", gen("for i = 1, 2 do\n", 195, func(i int) string { return fmt.Sprintf("local a%d = %d", i, i) }, "end"), "main function has more than 200 local variables"},
		{"many names in one local statement", gen("local "+strings.Join(func() []string {
			var n []string
			for i := range 300 {
				n = append(n, fmt.Sprintf("v%d", i))
			}
			return n
		}(), ", "), 0, nil, ""), "main function has more than 200 local variables"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileScript("x.lua", tc.src, 64<<20)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "x.lua:") || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%d bytes: %v, want one line with %q", len(tc.src), err, tc.want)
			}
		})
	}
}

// TestCompileWorkHonest: the shipped players and rules, a big lookup table
// and 200 locals (Lua 5.1's own limit) compile, far from the bound.
func TestCompileWorkHonest(t *testing.T) {
	err := fs.WalkDir(scripts.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
			return err
		}
		src, err := fs.ReadFile(scripts.FS, path)
		if err != nil {
			return err
		}
		r := rewriter{name: path}
		work := walkCost(t, &r, src)
		if work > maxCompileWork/50 {
			t.Errorf("%s: %d units of compile work, more than a fiftieth of the bound", path, work)
		}
		t.Logf("%s: %d units", path, work)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string][]byte{
		"a table of 3,000 numbers": gen("local t = {", 3000, func(i int) string { return fmt.Sprintf("%d,", i*7) }, "}"),
		"180 locals":               gen("", 180, func(i int) string { return fmt.Sprintf("local a%d = %d", i, i) }, ""),
		"a for loop of 170 locals": gen("for i = 1, 2 do\n", 170, func(i int) string { return fmt.Sprintf("local a%d = %d", i, i) }, "end"),
	} {
		if _, err := compileScript("x.lua", src, 64<<20); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// walkCost runs the rewriter's walk and returns the work it counted.
func walkCost(t *testing.T, r *rewriter, src []byte) int64 {
	t.Helper()
	if _, err := compileScript(r.name, src, 64<<20); err != nil {
		t.Fatalf("%s: %v", r.name, err)
	}
	chunk, err := parseOnly(r.name, src)
	if err != nil {
		t.Fatal(err)
	}
	r.enterFunc(0, 2, chunk[0])
	r.stmts(chunk, 0)
	return r.cost.work
}

// TestCompileCache: a file read again under the same name is not compiled
// again; another name or other bytes are; the cache stays within its
// bounds.
func TestCompileCache(t *testing.T) {
	src := []byte("return { name = 'C', run = function() return WAIT end }")
	a, err := compileCached("cache/c.lua", src, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := compileCached("cache/c.lua", src, 1<<20); b != a {
		t.Errorf("the same file was compiled again")
	}
	if b, _ := compileCached("cache/d.lua", src, 1<<20); b == a {
		t.Errorf("another name shares a prototype (its error positions would name the wrong file)")
	}
	if b, _ := compileCached("cache/c.lua", append(src, ' '), 1<<20); b == a {
		t.Errorf("other bytes share a prototype")
	}
	_, err1 := compileCached("cache/bad.lua", []byte("return {"), 1<<20)
	_, err2 := compileCached("cache/bad.lua", []byte("return {"), 1<<20)
	if err1 == nil || err1 != err2 {
		t.Errorf("a file's error is not kept: %v, %v", err1, err2)
	}
	for i := range compileCacheEntries + 50 {
		compileCached(fmt.Sprintf("cache/n%d.lua", i), src, 1<<20)
	}
	compileCache.Lock()
	n, bytes := compileCache.order.Len(), compileCache.bytes
	compileCache.Unlock()
	if n > compileCacheEntries || bytes > compileCacheBytes {
		t.Errorf("cache holds %d entries, %d bytes", n, bytes)
	}
}
