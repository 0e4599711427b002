// Package testhooks holds Go builtins the sandbox must never offer: each
// does, in Go, what a hole in the sandbox could let a script do (spin
// forever, allocate 10 GiB, overflow the stack, exit the process, crash on
// a nil pointer). Test binaries field them in their worker processes
// (worker.ServeOptions.Extra) to prove the outer wall holds. Only tests
// import this package; cmd/squarebattle's TestHooksStayOut checks that the
// program does not link it.
package testhooks

import (
	"fmt"
	"os"
	"runtime"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// Case is a hook as a test fields it: the script that calls it on every
// turn, the backstop event its worker's death makes, and words the
// event's message shows.
type Case struct {
	Hook   string
	Kind   engine.BackstopKind
	Shown  string
	Memory bool // it needs the address-space limit (worker.AddressSpaceLimited) to end
}

// Victim is a starting player that keeps data and draws random numbers:
// after its state is lost (a worker that died) it plays on differently,
// so a test can tell a team that started afresh from one that did not.
const Victim = `return { name = "Victim", run = function(self, team, view)
  self.turns = (self.turns or 0) + 1
  if self.turns % 7 == 0 then return REPLICATE, math.random(8), nil, {turns = 0} end
  local d = math.random(8)
  if view[d] == EMPTY then return MOVE, d end
end }`

// Cases are the hooks, each as a test fields it.
var Cases = []Case{
	{"go_spin", engine.BackstopTimeout, "wall-clock", false},
	{"go_alloc", engine.BackstopCrash, "out of memory", true},
	{"go_recurse", engine.BackstopCrash, "stack overflow", false},
	{"go_exit", engine.BackstopCrash, "exit status 3", false},
	{"go_nil", engine.BackstopCrash, "nil pointer", false},
}

// CallTimeout is isolation.call_timeout, in seconds, for a battle that
// fields the hook: only the spinning hook needs the wall clock to fire
// soon; the others die by themselves, however loaded the machine, and a
// long bound keeps every honest call clear of it.
func (c Case) CallTimeout() int {
	if c.Kind == engine.BackstopTimeout {
		return 1
	}
	return 60
}

// Player is a starting player named Hostile that calls the hook on every
// turn.
func (c Case) Player() string {
	return fmt.Sprintf(`return { name = "Hostile", run = function() %s() end }`, c.Hook)
}

// SkipReason says why the case cannot run here, or is empty.
func (c Case) SkipReason(addressSpaceLimited bool) string {
	if c.Memory && !addressSpaceLimited {
		return "no address-space limit under the race detector or off Linux: the hook would take the machine's memory"
	}
	return ""
}

// Globals are the hooks, by the names scripts call them.
var Globals = []luabind.Global{
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
