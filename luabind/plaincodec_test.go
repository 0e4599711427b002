package luabind

import (
	"errors"
	"math"
	"reflect"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// plainOf runs src (an expression) in a fresh state and copies its value.
func plainOf(t *testing.T, src string) any {
	t.Helper()
	L := lua.NewState()
	defer L.Close()
	if err := L.DoString("v = " + src); err != nil {
		t.Fatal(err)
	}
	p, err := toPlain(L.GetGlobal("v"))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPlainCodecRoundTrip: what a plain copier makes decodes to an equal
// value, summary fields included.
func TestPlainCodecRoundTrip(t *testing.T) {
	for _, src := range []string{
		`nil`, `true`, `false`, `0`, `-0.0`, `1/0`, `-1/0`, `0/0`, `2^63`, `"a\0b\255"`,
		`{}`, `{1, 2, 3, x = "y", [10] = false}`, `{[{1}] = {2}, n = {{{}}}}`,
		`{a = {b = {c = {d = "deep"}}}, 1.5, "two"}`,
	} {
		t.Run(src, func(t *testing.T) {
			want := plainOf(t, src)
			var e PlainEncoder
			var d PlainDecoder
			b := e.Append(nil, want)
			got, rest, err := d.Read(b)
			if err != nil || len(rest) != 0 {
				t.Fatalf("err %v, %d bytes left", err, len(rest))
			}
			if n, ok := want.(lua.LNumber); ok && math.IsNaN(float64(n)) {
				if g, ok := got.(lua.LNumber); !ok || !math.IsNaN(float64(g)) {
					t.Fatalf("got %v, want NaN", got)
				}
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %#v\nwant %#v", got, want)
			}
		})
	}
}

// TestPlainCodecIdentity: a table met twice in a message is sent once and
// decoded into one table; a constant is decoded into the same table in
// every later message, as a team VM's cache of constants needs.
func TestPlainCodecIdentity(t *testing.T) {
	shared := plainOf(t, `{1, 2, 3}`).(*plainTable)
	view := &plainTable{}
	view.add(lua.LString("a"), shared)
	view.add(lua.LString("b"), shared)
	view.entries = 2 + 2*shared.entries
	cst := plainOf(t, `{map = {7, 8}}`).(*plainTable)
	markConstant(cst)
	var e PlainEncoder
	var d PlainDecoder
	once := len(e.Append(nil, shared))
	e.Message()
	b := e.Append(nil, view)
	if len(b) >= 2*once+8 {
		t.Errorf("a shared table took %d bytes, alone %d: it was sent twice", len(b), once)
	}
	got, _, err := d.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	g := got.(*plainTable)
	if g.vals[0] != g.vals[1] || g.entries != view.entries {
		t.Errorf("shared table decoded twice, or entries %d (want %d)", g.entries, view.entries)
	}
	var firsts []*plainTable
	for range 3 {
		e.Message()
		d.Message()
		got, _, err := d.Read(e.Append(nil, cst))
		if err != nil {
			t.Fatal(err)
		}
		firsts = append(firsts, got.(*plainTable))
	}
	if firsts[0] != firsts[1] || firsts[1] != firsts[2] || !firsts[0].constant || !firsts[0].vals[0].(*plainTable).constant {
		t.Errorf("a constant decoded into different tables, or lost its mark")
	}
}

// TestPlainCodecHostile: encodings no encoder writes are refused before
// they can make the reader build a cycle, a tree past the entry bound or a
// nesting past the depth bound.
func TestPlainCodecHostile(t *testing.T) {
	table := func(n byte, rest ...byte) []byte { return append([]byte{plainTable_, 0, n}, rest...) }
	// chain: each table holds the one before it twice, by reference: 2^k
	// entries once built as Lua tables, in a few bytes each.
	var chain []byte
	for i := range 24 {
		chain = append(chain, table(2, plainTrue, plainRef, byte(i), plainFalse, plainRef, byte(i))...)
	}
	deep := []byte{}
	for range 40 {
		deep = append(deep, plainTable_, 0, 1, plainTrue)
	}
	deep = append(deep, plainTrue)
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad tag", []byte{99}},
		{"truncated number", []byte{plainNumber, 1, 2}},
		{"string longer than the frame", []byte{plainString, 100, 'a'}},
		{"count beyond the bytes", table(100, plainTrue, plainTrue)},
		{"reference to itself", table(1, plainTrue, plainRef, 0)},
		{"reference to nothing", []byte{plainRef, 0}},
		{"constant never sent", []byte{plainConst, 0}},
		{"nil value", table(1, plainTrue, plainNil)},
		{"nil key", table(1, plainNil, plainTrue)},
		{"bad flags", []byte{plainTable_, 9, 0}},
		{"nested past the depth bound", deep},
		{"a tree past the entry bound", append(table(1, plainTrue, plainTrue), append(chain, table(1, plainTrue, plainRef, 24)...)...)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d PlainDecoder
			var err error
			b := c.b
			for err == nil && len(b) > 0 {
				_, b, err = d.Read(b)
			}
			if c.b != nil && !errors.Is(err, ErrPlainEncoding) {
				t.Fatalf("err %v, want a malformed plain value", err)
			}
			if c.b == nil {
				if _, _, err := d.Read(nil); !errors.Is(err, ErrPlainEncoding) {
					t.Fatalf("err %v", err)
				}
			}
		})
	}
}
