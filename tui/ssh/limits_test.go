package ssh

import (
	"fmt"
	"testing"
	"time"
)

// TestUploadsForget: the uploads per hour are counted per key, and a key
// is forgotten once its last submit is an hour old: however many keys
// ever submitted (a key costs nothing to make), the count holds only the
// keys of the last hour, and still refuses a key at its limit.
func TestUploadsForget(t *testing.T) {
	tests := []struct {
		name      string
		keys      int           // each submits once
		gap       time.Duration // then this passes
		after     int           // and this many more keys submit once
		wantHeld  int           // keys held then
		limitedOK bool          // whether the first key may submit again (max 1)
	}{
		{"within the hour", 1000, 10 * time.Minute, 1, 1001, false},
		{"an hour later", 1000, time.Hour, 1, 1, true},
		{"two hours later, many more", 5000, 2 * time.Hour, 10, 10, true},
		{"just under the hour", 100, time.Hour - time.Second, 1, 101, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			now := time.Unix(1e9, 0)
			u := newUploads(1)
			u.now = func() time.Time { return now }
			for i := 0; i < tt.keys; i++ {
				if ok, _ := u.take(fmt.Sprint("k", i)); !ok {
					t.Fatalf("key %d refused its first upload", i)
				}
			}
			now = now.Add(tt.gap)
			for i := 0; i < tt.after; i++ {
				if ok, _ := u.take(fmt.Sprint("new", i)); !ok {
					t.Fatalf("new key %d refused its first upload", i)
				}
			}
			if got := len(u.by); got != tt.wantHeld {
				t.Errorf("%d keys held, want %d", got, tt.wantHeld)
			}
			if ok, _ := u.take("k0"); ok != tt.limitedOK {
				t.Errorf("the first key's second upload allowed %v, want %v", ok, tt.limitedOK)
			}
		})
	}
}
