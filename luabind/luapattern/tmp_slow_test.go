package luapattern

import (
	"fmt"
	"os"
	"time"
)

func slowWatch(pattern, subject string) func() {
	start := time.Now()
	return func() {
		if d := time.Since(start); d > 20*time.Millisecond {
			f, _ := os.OpenFile(fmt.Sprintf("/tmp/slow-%d.txt", os.Getpid()), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			fmt.Fprintf(f, "%v %q %q\n", d, pattern, subject)
			f.Close()
		}
	}
}
