package luabind

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// TestPlainToJSON: every kind of plain value, as Lua scripts make them,
// is written as the JSON the format says, or refused with a clear error.
func TestPlainToJSON(t *testing.T) {
	cases := []struct {
		lua, want, err string
	}{
		{"nil", `null`, ""},
		{"true", `true`, ""},
		{"3", `3`, ""},
		{"-0.0", `0`, ""},
		{"2^53", `9007199254740992`, ""},
		{"1e300", `1e+300`, ""},
		{"0.1", `0.1`, ""},
		{"-2.5", `-2.5`, ""},
		{"0/0", "", "cannot be written as JSON"},
		{"1/0", "", "cannot be written as JSON"},
		{`"a\"b\\c\n\1<&>é"`, `"a\"b\\c\n\u0001<&>é"`, ""},
		{`"\255"`, "", "not UTF-8"},
		{"{}", `[]`, ""},
		{"{1, 2, {3}}", `[1,2,[3]]`, ""},
		{"{x = 1, y = {z = 'w'}}", `{"x":1,"y":{"z":"w"}}`, ""},
		{"{10, 20, x = 1}", `{"1":10,"2":20,"x":1}`, ""},
		{"{[2] = 'b', [0.5] = 'h', [true] = 't'}", `{"2":"b","0.5":"h","true":"t"}`, ""},
		{"{[1] = 'n', ['1'] = 's', x = 0}", "", `both written "1"`},
		{"{[{}] = 1}", "", "table key"},
		{strings.Repeat("{", 32) + "1" + strings.Repeat("}", 32), strings.Repeat("[", 32) + "1" + strings.Repeat("]", 32), ""},
	}
	for _, c := range cases {
		got, err := PlainToJSON(plainOf(t, c.lua))
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrPlainJSON)):
			t.Errorf("%s: %q, %v; want an error saying %q", c.lua, got, err, c.err)
		case c.err == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %s, %v; want %s", c.lua, got, err, c.want)
		}
	}
	// Go values too, and nothing else.
	for v, want := range map[any]string{"x": `"x"`, 7: `7`, 1.5: `1.5`, false: `false`} {
		if got, err := PlainToJSON(v); err != nil || string(got) != want {
			t.Errorf("%v: %s, %v; want %s", v, got, err, want)
		}
	}
	if _, err := PlainToJSON(struct{}{}); err == nil {
		t.Error("a struct was written")
	}
}

// TestPlainFromJSON: JSON is read into plain values a Lua state can hold,
// or refused, hostile text included, with one error.
func TestPlainFromJSON(t *testing.T) {
	deep := strings.Repeat("[", 33) + strings.Repeat("]", 33)
	cases := []struct {
		json, back, err string // back: the value written again
	}{
		{`null`, `null`, ""},
		{` 7 `, `7`, ""},
		{`-0`, `0`, ""},
		{`1.0`, `1`, ""},
		{`1e2`, `100`, ""},
		{`9007199254740993.5`, `9007199254740994`, ""},
		{`9007199254740992`, `9007199254740992`, ""},
		{`9007199254740993`, "", "beyond what a number holds exactly"},
		{`18014398509481984`, `18014398509481984`, ""}, // 2^54, held exactly
		{`-123456789012345678901234567890`, "", "beyond what a number holds exactly"},
		{`1e400`, "", "beyond what a number holds"},
		{`"\u00e9\n"`, `"é\n"`, ""},
		{`[1, null, 3]`, `{"1":1,"3":3}`, ""},
		{`[]`, `[]`, ""},
		{`{}`, `[]`, ""},
		{`{"b": 1, "a": [true, {"c": null}]}`, `{"b":1,"a":[true,[]]}`, ""},
		{`{"1": "x", "2": "y"}`, `{"1":"x","2":"y"}`, ""},
		{`{"a": 1, "a": 2}`, "", `the key "a" twice`},
		{deep, "", "nested more than 32 deep"},
		{strings.Repeat("[", 32) + strings.Repeat("]", 32), strings.Repeat("[", 32) + strings.Repeat("]", 32), ""},
		{strings.Repeat("[", 100000), "", "nested more than 32 deep"},
		{"\"\xff\"", "", "not UTF-8"},
		{`[1,]`, "", "invalid JSON"},
		{`1 2`, "", "more than one JSON value"},
		{``, "", "no JSON value"},
		{`{"a":}`, "", "invalid JSON"},
		{`NaN`, "", "invalid JSON"},
	}
	for _, c := range cases {
		v, err := PlainFromJSON([]byte(c.json))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrPlainJSON) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%.40s: %v; want one line saying %q", c.json, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%.40s: %v", c.json, err)
			continue
		}
		if back, err := PlainToJSON(v); err != nil || string(back) != c.back {
			t.Errorf("%.40s: read back as %s, %v; want %s", c.json, back, err, c.back)
		}
	}
	if _, err := PlainFromJSON(make([]byte, MaxPlainJSON+1)); err == nil || !strings.Contains(err.Error(), "bytes of JSON") {
		t.Errorf("text too long: %v", err)
	}
	wide := []byte("[" + strings.Repeat("0,", maxPlainEntries) + "0]")
	if _, err := PlainFromJSON(wide); err == nil || !strings.Contains(err.Error(), "table entries") {
		t.Errorf("too many entries: %v", err)
	}
}

// TestPlainJSONInLua: a value read from JSON builds in a Lua state as the
// tables it stands for.
func TestPlainJSONInLua(t *testing.T) {
	v, err := PlainFromJSON([]byte(`{"units": [{"id": 1, "at": [2, 3]}, {"id": 2}], "name": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	L := lua.NewState()
	defer L.Close()
	L.SetGlobal("v", fromPlain(L, v))
	if err := L.DoString(`assert(#v.units == 2 and v.units[1].at[2] == 3 and v.units[2].id == 2 and v.name == "x")`); err != nil {
		t.Error(err)
	}
	if sz := plainSize(v); sz < 8 {
		t.Errorf("plain size %d: the table's summary was not kept", sz)
	}
}

// FuzzPlainJSON: any text is read or refused without a crash; what is
// read writes again, and that text reads back into a value written the
// same way (the round trip the engine's records rely on).
func FuzzPlainJSON(f *testing.F) {
	for _, s := range []string{`null`, `[1,null,{"a":-0}]`, `{"x":{"y":[true,"é"]}}`, `1e308`, `[[[[]]]]`, `{"a":1,"a":2}`, "\"\xff\""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		v, err := PlainFromJSON(text)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			return
		}
		once, err := PlainToJSON(v)
		if err != nil {
			t.Fatalf("%q read, but cannot be written: %v", text, err)
		}
		w, err := PlainFromJSON(once)
		if err != nil {
			t.Fatalf("%q written as %q, which cannot be read: %v", text, once, err)
		}
		twice, err := PlainToJSON(w)
		if err != nil || !bytes.Equal(once, twice) {
			t.Fatalf("%q written as %q, then as %q (%v)", text, once, twice, err)
		}
		if f, ok := v.(lua.LNumber); ok && (math.IsNaN(float64(f)) || math.IsInf(float64(f), 0)) {
			t.Fatalf("%q read as %v", text, f)
		}
	})
}
