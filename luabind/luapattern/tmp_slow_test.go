package luapattern

import (
	"fmt"
	"os"
	"runtime"
	"time"
)

func slowWatch(pattern, subject string) func() {
	t := time.AfterFunc(15*time.Millisecond, func() {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		f, _ := os.OpenFile(fmt.Sprintf("/tmp/slow-%d.txt", os.Getpid()), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		fmt.Fprintf(f, "=== %q %d\n%s\n", pattern, len(subject), buf[:n])
		f.Close()
	})
	return func() { t.Stop() }
}
