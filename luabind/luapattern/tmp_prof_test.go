package luapattern

import (
	"strings"
	"testing"
	"time"
)

func TestTmpProf(t *testing.T) {
	subj := "xabx" + strings.Repeat("@", 1400)
	start := time.Now()
	for i := 0; i < 100; i++ {
		fuzzFind(t, "a0", subj)
	}
	t.Log(time.Since(start) / 100)
}
