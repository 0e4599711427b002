package tui

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestBarKeyCoversStatus: two statuses that differ in any field have
// different bar keys, so viewers never share a status bar that one of
// them would draw differently (a field added to status must be added to
// barKey).
func TestBarKeyCoversStatus(t *testing.T) {
	base := status{f: &frame{}}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		st := base
		f := reflect.ValueOf(&st).Elem().Field(i)
		v := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem() // the fields are unexported
		switch v.Kind() {
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.String:
			v.SetString("x")
		case reflect.Slice:
			v.Set(reflect.ValueOf([]string{"x"}))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int:
			v.SetInt(1)
		default:
			t.Fatalf("status.%s: a %s, which this test does not vary", typ.Field(i).Name, v.Kind())
		}
		if barKeyOf(st, 23) == barKeyOf(base, 23) {
			t.Errorf("status.%s is not in the bar's key", typ.Field(i).Name)
		}
	}
	if barKeyOf(base, 22) == barKeyOf(base, 23) {
		t.Error("the bar's row is not in its key")
	}
	// The prompt's forms are told apart, not only their text run together.
	a, b := base, base
	a.prompt, b.prompt = []string{"ab", "c"}, []string{"a", "bc"}
	if barKeyOf(a, 23) == barKeyOf(b, 23) {
		t.Error("prompts of different forms share a key")
	}
}
