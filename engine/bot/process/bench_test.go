package process

import (
	"bytes"
	"testing"
	"time"
)

// BenchmarkRoundTrip: one line to an echo bot and back, over each
// transport, for lines the size of a small and a large round message.
// The difference to a Lua team's turn is the per-round overhead of an
// external team (docs/bots.md). Compare sub-benchmarks of one run:
//
//	go test ./engine/bot/process -run '^$' -bench RoundTrip -count 8 | benchstat -col /transport -
func BenchmarkRoundTrip(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"100B", 100}, {"64KiB", 64 << 10}} {
		for _, tr := range []string{Stdio, TCP} {
			b.Run("size="+size.name+"/transport="+tr, func(b *testing.B) {
				bt, err := Start(Options{Command: []string{faultBot, "echo"}, Transport: tr})
				if err != nil {
					b.Fatal(err)
				}
				defer bt.Close()
				line := bytes.Repeat([]byte("r"), size.bytes)
				b.SetBytes(int64(size.bytes))
				for b.Loop() {
					if err := bt.Send(line); err != nil {
						b.Fatal(err)
					}
					if _, err := bt.Receive(time.Time{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
