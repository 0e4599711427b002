package worker

import (
	"os"
	"runtime"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/luabind"
)

// testHooks are the builtins the sandbox must never offer, fielded only in
// this test binary's workers (TestMain): each does, in Go, what a hole in
// the sandbox could let a script do.
var testHooks = []luabind.Global{
	{Name: "go_spin", Fn: func(*lua.LState) int {
		for i := 0; ; i++ {
			if i < 0 {
				return 0
			}
		}
	}},
	{Name: "go_alloc", Fn: func(*lua.LState) int {
		b := make([]byte, 10<<30) // 10 GiB, each page touched
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		runtime.KeepAlive(b)
		return 0
	}},
	{Name: "go_recurse", Fn: func(*lua.LState) int { return recurse(1) }},
	{Name: "go_exit", Fn: func(*lua.LState) int { os.Exit(3); return 0 }},
	{Name: "go_nil", Fn: func(*lua.LState) int {
		// In a goroutine of its own: gopher-lua's PCall would recover a
		// panic on the calling goroutine and make it a Lua error.
		go func() {
			var p *[8]int
			p[3] = 1
		}()
		time.Sleep(time.Hour)
		return 0
	}},
}

//go:noinline
func recurse(n int) int {
	var pad [256]byte
	pad[n%256] = byte(n)
	return recurse(n+1) + int(pad[(n+1)%256])
}
