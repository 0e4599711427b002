package luapattern

import (
	"strings"
	"testing"
	"time"
)

func TestTmpProf(t *testing.T) {
	subj := "a" + strings.Repeat("s", 1471)
	start := time.Now()
	fuzzFind(t, "0", subj)
	t.Log(time.Since(start))
}
