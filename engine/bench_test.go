package engine

import (
	"strings"
	"testing"
)

type waiter struct{}

func (waiter) Turn(*Turn)         {}
func (waiter) Settle(*Settlement) {}

// BenchmarkRoundOverhead is the engine's own cost per square-step on a full
// 64×64 arena whose controllers answer instantly: views, the four stages,
// bookkeeping. Compare with luabind's BenchmarkSquareStep.
func BenchmarkRoundOverhead(b *testing.B) {
	const size = 64
	var sb strings.Builder
	for r := 0; r < size; r++ {
		for c := 0; c < size; c++ {
			sb.WriteString([]string{"0 ", "1 "}[(r+c)%2])
		}
		sb.WriteByte('\n')
	}
	m, err := ParseMap("bench", []byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	bt, err := NewBattle(Options{Size: size, Wrap: true, Rounds: 1 << 30, Seed: 1, Map: m, Classes: []string{"w"},
		Teams: []TeamSetup{{Controller: waiter{}}, {Controller: waiter{}}}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for steps := 0; steps < b.N; steps += size * size {
		bt.Step()
	}
}
