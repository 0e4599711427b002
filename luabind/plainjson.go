package luabind

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
)

// Plain values as JSON text: what an external bot is shown of a rule
// mod's view and what it answers, and how the engine records an outside
// team's answers (PlainJSON, an engine.AnswerCodec).
//
//	nil                     null (a table's nil entries do not exist in Lua: they are never written)
//	booleans, strings       themselves; a string must be UTF-8 (JSON cannot hold other bytes)
//	numbers                 an integer value as its digits, exactly; others in the shortest form that reads
//	                        back to the same number; NaN and ±Inf are refused; -0 is written as 0
//	a table of keys 1..n    an array (the empty table is [])
//	any other table         an object in the table's order (the order next gave, see plainTable);
//	                        number keys written as their text ("1", "2.5"), booleans as "true"/"false";
//	                        a table whose keys would be written alike (1 and "1") or with a table as a key
//	                        is refused
//
// Reading JSON gives back tables for arrays (keys 1..n; a null element
// leaves its key out) and objects (string keys, in the text's order; a
// null member is left out), numbers as Lua numbers (an integer written in
// digits that a number does not hold exactly, such as 2^53+1, and a
// number beyond float64 are refused; -0 reads as 0), strings and
// booleans as themselves, and nil for a top-level null. Text longer than
// MaxPlainJSON bytes, not UTF-8, nested more than 32 deep, with more
// than 2^20 entries, or an object with a key twice is refused before or
// while it is read, never after building it whole. A mixed table does not
// come back as it was: its number keys come back as strings.

// MaxPlainJSON bounds the JSON text of one plain value, read or written.
const MaxPlainJSON = 16 << 20

// ErrPlainJSON is wrapped by every error of PlainToJSON and PlainFromJSON.
var ErrPlainJSON = errors.New("plain value as JSON")

// PlainJSON is the engine.AnswerCodec of plain values: PlainToJSON and
// PlainFromJSON. It holds nothing, so any goroutine may use it.
var PlainJSON engine.AnswerCodec = plainJSON{}

type plainJSON struct{}

func (plainJSON) EncodeAnswer(v any) ([]byte, error)    { return PlainToJSON(v) }
func (plainJSON) DecodeAnswer(text []byte) (any, error) { return PlainFromJSON(text) }

// PlainToJSON writes a plain value (nil, a Lua scalar, a table a plain
// copier or PlainFromJSON made, or a Go bool, int, float64 or string) as
// compact JSON text.
func PlainToJSON(v any) ([]byte, error) {
	w := jsonWriter{}
	err := w.value(v, 0)
	if err == nil && len(w.b) > MaxPlainJSON {
		err = fmt.Errorf("more than %d bytes", MaxPlainJSON)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPlainJSON, err)
	}
	return w.b, nil
}

type jsonWriter struct {
	b       []byte
	entries int
}

func (w *jsonWriter) value(v any, depth int) error {
	if len(w.b) > MaxPlainJSON {
		return fmt.Errorf("more than %d bytes", MaxPlainJSON)
	}
	switch x := v.(type) {
	case nil, *lua.LNilType:
		w.b = append(w.b, "null"...)
	case lua.LBool:
		w.b = strconv.AppendBool(w.b, bool(x))
	case bool:
		w.b = strconv.AppendBool(w.b, x)
	case lua.LNumber:
		return w.number(float64(x))
	case float64:
		return w.number(x)
	case int:
		w.b = strconv.AppendInt(w.b, int64(x), 10)
	case lua.LString:
		return w.string(string(x))
	case string:
		return w.string(x)
	case *plainTable:
		return w.table(x, depth)
	default:
		return fmt.Errorf("a %T is not plain data", v)
	}
	return nil
}

func (w *jsonWriter) number(f float64) error {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return fmt.Errorf("the number %v cannot be written as JSON", f)
	case f == 0:
		w.b = append(w.b, '0') // -0 too
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		w.b = strconv.AppendFloat(w.b, f, 'f', -1, 64)
	default:
		w.b = strconv.AppendFloat(w.b, f, 'g', -1, 64)
	}
	return nil
}

// string writes s as a JSON string: quotes, backslashes and control
// characters escaped, nothing else (no HTML escapes), so that the text is
// what json.Compact leaves as it is.
func (w *jsonWriter) string(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("a string that is not UTF-8 cannot be written as JSON")
	}
	const hex = "0123456789abcdef"
	w.b = append(w.b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.b = append(w.b, '\\', c)
		case c == '\n':
			w.b = append(w.b, '\\', 'n')
		case c == '\t':
			w.b = append(w.b, '\\', 't')
		case c == '\r':
			w.b = append(w.b, '\\', 'r')
		case c < 0x20:
			w.b = append(w.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			w.b = append(w.b, c)
		}
	}
	w.b = append(w.b, '"')
	return nil
}

func (w *jsonWriter) table(t *plainTable, depth int) error {
	if depth >= maxPlainDepth {
		return fmt.Errorf("tables nested more than %d deep", maxPlainDepth)
	}
	if w.entries += len(t.keys); w.entries > maxPlainEntries {
		return fmt.Errorf("more than %d table entries", maxPlainEntries)
	}
	if t.arr == len(t.keys) {
		w.b = append(w.b, '[')
		for i, v := range t.vals {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			if err := w.value(v, depth+1); err != nil {
				return err
			}
		}
		w.b = append(w.b, ']')
		return nil
	}
	names := make(map[string]bool, len(t.keys))
	w.b = append(w.b, '{')
	for i, k := range t.keys {
		name, err := keyName(k)
		if err != nil {
			return err
		}
		if names[name] {
			return fmt.Errorf("two keys of a table are both written %q", name)
		}
		names[name] = true
		if i > 0 {
			w.b = append(w.b, ',')
		}
		if err := w.string(name); err != nil {
			return err
		}
		w.b = append(w.b, ':')
		if err := w.value(t.vals[i], depth+1); err != nil {
			return err
		}
	}
	w.b = append(w.b, '}')
	return nil
}

// keyName is the object key a table key is written as.
func keyName(k any) (string, error) {
	switch x := k.(type) {
	case lua.LString:
		return string(x), nil
	case lua.LBool:
		return strconv.FormatBool(bool(x)), nil
	case lua.LNumber:
		var w jsonWriter
		if err := w.number(float64(x)); err != nil {
			return "", err
		}
		return string(w.b), nil
	}
	return "", fmt.Errorf("a table key of type %T cannot be written as JSON", k)
}

// maxExactInt is 2^53: a float64 holds every integer up to it exactly,
// and beyond it only some.
const maxExactInt = 1 << 53

// PlainFromJSON reads one JSON value into a plain value (see above).
func PlainFromJSON(text []byte) (any, error) {
	v, err := readPlainJSON(text)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrPlainJSON, err)
	}
	return v, nil
}

func readPlainJSON(text []byte) (any, error) {
	if len(text) > MaxPlainJSON {
		return nil, fmt.Errorf("%d bytes of JSON, at most %d", len(text), MaxPlainJSON)
	}
	if !utf8.Valid(text) {
		return nil, errors.New("the text is not UTF-8")
	}
	r := jsonReader{dec: json.NewDecoder(bytes.NewReader(text))}
	r.dec.UseNumber()
	tok, err := r.dec.Token()
	if err != nil {
		return nil, jsonError(err)
	}
	v, err := r.value(tok, 0)
	if err != nil {
		return nil, err
	}
	if _, err := r.dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value")
	}
	if v == lua.LNil {
		v = nil
	}
	return v, nil
}

type jsonReader struct {
	dec     *json.Decoder
	entries int
}

// jsonError names a syntax error without the decoder's prefix.
func jsonError(err error) error {
	if err == io.EOF {
		return errors.New("no JSON value")
	}
	return fmt.Errorf("invalid JSON: %v", err)
}

// value reads the value that begins with tok; a null is lua.LNil.
func (r *jsonReader) value(tok json.Token, depth int) (any, error) {
	switch x := tok.(type) {
	case nil:
		return lua.LNil, nil
	case bool:
		return lua.LBool(x), nil
	case string:
		return lua.LString(x), nil
	case json.Number:
		return readNumber(string(x))
	case json.Delim:
		if depth >= maxPlainDepth {
			return nil, fmt.Errorf("tables nested more than %d deep", maxPlainDepth)
		}
		return r.table(x == '{', depth)
	}
	return nil, fmt.Errorf("unexpected %v", tok)
}

// readNumber reads a JSON number: an integer written without fraction or
// exponent must be held exactly; any number must be finite.
func readNumber(s string) (any, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, fmt.Errorf("the number %.40s is beyond what a number holds", s)
	}
	if !strings.ContainsAny(s, ".eE") && math.Abs(f) >= maxExactInt && strconv.FormatFloat(f, 'f', -1, 64) != s {
		return nil, fmt.Errorf("the integer %.40s is beyond what a number holds exactly (2^53)", s)
	}
	if f == 0 {
		f = 0 // -0 reads as 0
	}
	return lua.LNumber(f), nil
}

// table reads an array or an object after its opening delimiter.
func (r *jsonReader) table(object bool, depth int) (any, error) {
	t := &plainTable{size: 1, height: 1}
	first := r.entries
	var names map[string]bool
	if object {
		names = map[string]bool{}
	}
	for n := 1; ; n++ {
		tok, err := r.dec.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		if d, ok := tok.(json.Delim); ok && (d == ']' || d == '}') {
			break
		}
		var key any = lua.LNumber(n)
		if object {
			name, _ := tok.(string)
			if names[name] {
				return nil, fmt.Errorf("the key %q twice in one object", clipName(name))
			}
			names[name] = true
			key = lua.LString(name)
			if tok, err = r.dec.Token(); err != nil {
				return nil, jsonError(err)
			}
		}
		if r.entries++; r.entries > maxPlainEntries {
			return nil, fmt.Errorf("more than %d table entries", maxPlainEntries)
		}
		v, err := r.value(tok, depth+1)
		if err != nil {
			return nil, err
		}
		if v != lua.LNil {
			t.add(key, v)
		}
	}
	t.entries = r.entries - first
	return t, nil
}

// clipName shortens a key quoted in an error.
func clipName(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}
