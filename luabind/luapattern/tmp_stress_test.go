package luapattern

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestTmpStress(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alpha := "abc1 ()[]%^$*+-?.\x00\xff"
	for i := 0; i < 300000; i++ {
		pat := genSubject(r, alpha, 12)
		subj := genSubject(r, alpha, 40)
		done := make(chan bool)
		go func() { fuzzFind(t, pat, subj); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatalf("slow: %q %q", pat, subj)
		}
	}
}
