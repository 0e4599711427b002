package replay

import (
	"encoding/json"
	"strconv"
)

// appendRound appends a round's line to dst: the same bytes json.Encoder
// writes for it (with HTML escaping off), newline included. A round is
// written every round of every recorded battle, and encoding/json's
// reflection over the round's number lists was most of the recorder's
// time; the lists are written here directly. The rare parts made of
// strings and records (problems, backstops, printed lines, outside
// teams' answers) go through encoding/json as before, each in its place,
// so the line is the one json would write (TestRoundLineMatchesJSON).
func appendRound(dst []byte, r *round) ([]byte, error) {
	dst = append(dst, `{"r":`...)
	dst = strconv.AppendInt(dst, int64(r.R), 10)
	dst = appendInts(dst, `,"c":`, r.C)
	dst = appendInts(dst, `,"b":`, r.B)
	dst = appendInts(dst, `,"d":`, r.D)
	dst = appendInts(dst, `,"f":`, r.F)
	dst, err := appendJSON(dst, `,"p":`, r.P)
	dst = appendInts(dst, `,"m":`, r.M)
	dst = appendInts(dst, `,"v":`, r.V)
	if err == nil {
		dst, err = appendJSON(dst, `,"w":`, r.W)
	}
	if err == nil {
		dst, err = appendJSON(dst, `,"l":`, r.L)
	}
	if err == nil {
		dst, err = appendJSON(dst, `,"a":`, r.A)
	}
	return append(dst, "}\n"...), err
}

// appendInts appends `key[n,n,…]`, or nothing for an empty list (as
// omitempty leaves it out).
func appendInts[T int | int32](dst []byte, key string, xs []T) []byte {
	if len(xs) == 0 {
		return dst
	}
	dst = append(dst, key...)
	for i, x := range xs {
		if i == 0 {
			dst = append(dst, '[')
		} else {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(x), 10)
	}
	return append(dst, ']')
}

// appendJSON appends `key` and xs as encoding/json writes them with HTML
// escaping off (json.Marshal escapes <, > and &; the writer's encoder
// does not), or nothing for an empty list.
func appendJSON[T any](dst []byte, key string, xs []T) ([]byte, error) {
	if len(xs) == 0 {
		return dst, nil
	}
	var b jsonBuffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(xs); err != nil {
		return dst, err
	}
	dst = append(dst, key...)
	return append(dst, b[:len(b)-1]...), nil // Encode's newline off
}

// jsonBuffer is the least io.Writer an Encoder can write to.
type jsonBuffer []byte

func (b *jsonBuffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}
