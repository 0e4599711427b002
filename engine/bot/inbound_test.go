package bot

import (
	"errors"
	"strings"
	"testing"
)

// TestNesting: a line nested past MaxNesting is refused, by both readers,
// with a reason that says so; brackets inside strings, escaped quotes
// included, do not count; nesting up to the bound reads.
func TestNesting(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	cases := []struct {
		name, line string
		refused    bool
	}{
		{"at the bound", `{"type":"actions","round":1,"actions":` + deep(MaxNesting-1) + `}`, false},
		{"one past", `{"type":"actions","round":1,"actions":` + deep(MaxNesting) + `}`, true},
		{"a million", `{"type":"actions","round":1,"actions":` + deep(1_000_000) + `}`, true},
		{"objects", `{"type":"actions","round":1,"x":` + strings.Repeat(`{"a":`, MaxNesting) + "1" + strings.Repeat("}", MaxNesting) + `}`, true},
		{"brackets in a string", `{"type":"ready","name":"` + strings.Repeat("[", 1000) + `"}`, false},
		{"escaped quote in a string", `{"type":"ready","name":"\"` + strings.Repeat("[", 1000) + `"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, parse := range []func([]byte) (inbound, error){parseLine, parseLine2} {
				_, err := parse([]byte(tc.line))
				if !tc.refused {
					if err != nil {
						t.Errorf("refused: %v", err)
					}
					continue
				}
				if !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "nested more than") {
					t.Errorf("got %v, want nested more than %d", err, MaxNesting)
				}
			}
		})
	}
}
