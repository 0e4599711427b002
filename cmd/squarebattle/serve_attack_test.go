package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestServeAttackFigures re-measures the attacks of issue 25 on the SSH
// arena with its default configuration (docs/serve.md, "What the doors
// cost an attacker"). It asserts nothing: it prints, for each attack,
// what the server holds while it lasts and after. It only runs with
// SERVE_ATTACKS=1 (a few minutes, real checks in child processes):
//
//	SERVE_ATTACKS=1 go test ./cmd/squarebattle -run TestServeAttackFigures -v -timeout 30m
//
// SERVE_ATTACKS=env,channels (names as below) runs only those. The file
// uses nothing but the arena's constructor and an SSH client, so that the
// same file measures older versions of the server too.
func TestServeAttackFigures(t *testing.T) {
	which := os.Getenv("SERVE_ATTACKS")
	if which == "" {
		t.Skip("SERVE_ATTACKS=1 measures the attacks of issue 25")
	}
	on := func(name string) bool {
		return which == "1" || strings.Contains(","+which+",", ","+name+",")
	}
	for _, a := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"env", atkEnv},
		{"channels", atkChannels},
		{"idle", atkIdleChannels},
		{"smallpackets", atkSmallPackets},
		{"ptyhangup", atkPtyHangup},
		{"nocommand", atkNoCommand},
		{"checks", atkChecks},
		{"players", atkPlayersRace},
		{"quota", atkQuotaBurn},
		{"newkeys", atkNewKeys},
	} {
		if on(a.name) {
			t.Run(a.name, a.run)
		}
	}
}

// atkArena is the arena of the default configuration on a loopback port.
func atkArena(t *testing.T) (addr string, a *serveArena) {
	t.Helper()
	cfg := serveConfig(t)
	a, err := newArena(cfg, discardLog(), nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	go a.srv.Serve(l)
	t.Cleanup(func() {
		a.srv.Shutdown(t.Context())
		a.close()
	})
	time.Sleep(300 * time.Millisecond) // the featured battle under way
	return l.Addr().String(), a
}

// atkAnon dials without a key (keyboard-interactive, as anonymous
// spectators do).
func atkAnon(addr string) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "mallory",
		Auth:            []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
}

// atkSession opens a bare session channel, its requests discarded.
func atkSession(c *gossh.Client) (gossh.Channel, error) {
	ch, reqs, err := c.OpenChannel("session", nil)
	if err != nil {
		return nil, err
	}
	go gossh.DiscardRequests(reqs)
	return ch, nil
}

type atkFigure struct {
	heap0, heap1 uint64
	g0, g1       int
}

func atkStart() atkFigure {
	return atkFigure{heap0: heapNow(), g0: runtime.NumGoroutine()}
}

func (f *atkFigure) now() string {
	f.heap1, f.g1 = heapNow(), runtime.NumGoroutine()
	return fmt.Sprintf("heap %+.1f MB, goroutines %+d", float64(int64(f.heap1)-int64(f.heap0))/(1<<20), f.g1-f.g0)
}

// atkEnv: 4,000 env requests of 40 KB on one session channel, no key.
func atkEnv(t *testing.T) {
	addr, _ := atkArena(t)
	f := atkStart()
	c, err := atkAnon(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ch, err := atkSession(c)
	if err != nil {
		t.Fatal(err)
	}
	value := strings.Repeat("v", 40<<10)
	accepted, refused := 0, 0
	for i := range 4000 {
		if atkRequest(ch, "env", gossh.Marshal(struct{ Key, Value string }{"K" + strconv.Itoa(i), value})) {
			accepted++
		} else {
			refused++
		}
	}
	t.Logf("env: 4000 requests of 40 KB: %d accepted, %d refused; server while open: %s", accepted, refused, f.now())
}

// atkChannels: 200 session channels on one connection, no command, 2 MiB
// of stdin into each.
func atkChannels(t *testing.T) {
	addr, _ := atkArena(t)
	f := atkStart()
	c, err := atkAnon(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opened, filled := 0, 0
	chunk := make([]byte, 32<<10)
	var chans []gossh.Channel
	for range 200 {
		ch, err := atkSession(c)
		if err != nil {
			continue
		}
		chans = append(chans, ch)
		opened++
		sent := 0
		for sent < 2<<20 {
			if err := atkWriteWithin(ch, chunk, 2*time.Second); err != nil {
				break
			}
			sent += len(chunk)
		}
		if sent >= 2<<20 {
			filled++
		}
	}
	alive := 0
	for _, ch := range chans {
		if _, err := ch.SendRequest("alive@test", true, nil); err == nil {
			alive++
		}
	}
	t.Logf("channels: 200 asked, %d opened, %d took 2 MiB of stdin, %d still open at the end; server while open: %s", opened, filled, alive, f.now())
}

// atkIdleChannels: 200 session channels on one connection, no command,
// nothing sent.
func atkIdleChannels(t *testing.T) {
	addr, _ := atkArena(t)
	f := atkStart()
	c, err := atkAnon(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opened, refused := 0, ""
	for range 200 {
		if _, err := atkSession(c); err != nil {
			refused = err.Error()
			continue
		}
		opened++
	}
	t.Logf("idle channels: 200 asked on one connection, %d opened (refusal: %q); server while open: %s", opened, refused, f.now())
}

// atkSmallPackets: 5 session channels, each sent 2 MiB of stdin in
// 16-byte packets (each packet a buffer of its own in x/crypto).
func atkSmallPackets(t *testing.T) {
	addr, _ := atkArena(t)
	f := atkStart()
	c, err := atkAnon(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	total := 0
	small := make([]byte, 16)
	for range 5 {
		ch, err := atkSession(c)
		if err != nil {
			continue
		}
		for sent := 0; sent < 2<<20; sent += len(small) {
			if err := atkWriteWithin(ch, small, 2*time.Second); err != nil {
				break
			}
			total += len(small)
		}
	}
	t.Logf("small packets: %d KiB of stdin in 16-byte packets on 5 channels; server while open: %s", total>>10, f.now())
}

// atkRequest sends a request that wants a reply and reports whether a
// positive one came within 2 s.
func atkRequest(ch gossh.Channel, kind string, payload []byte) bool {
	done := make(chan bool, 1)
	go func() {
		ok, _ := ch.SendRequest(kind, true, payload)
		done <- ok
	}()
	select {
	case ok := <-done:
		return ok
	case <-time.After(2 * time.Second):
		return false
	}
}

// atkWriteWithin writes p, giving up after d (a shut window).
func atkWriteWithin(ch gossh.Channel, p []byte, d time.Duration) error {
	done := make(chan error, 1)
	go func() {
		_, err := ch.Write(p)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("write blocked for %s", d)
	}
}

// atkPtyHangup: 20 connections, one after the other, each asking for env,
// a pty and three window changes, sending 2 MiB of stdin, then hanging up
// before any command; then 10 more that run help while resizing
// (ssh -t HOST help).
func atkPtyHangup(t *testing.T) {
	addr, a := atkArena(t)
	f := atkStart()
	chunk := make([]byte, 32<<10)
	stuck := 0
	pty := gossh.Marshal(struct {
		Term             string
		Cols, Rows, W, H uint32
		Modes            string
	}{"xterm", 80, 24, 0, 0, ""})
	win := func(w, h uint32) []byte { return gossh.Marshal(struct{ W, H, PW, PH uint32 }{w, h, 0, 0}) }
	for i := range 30 {
		c, err := atkAnon(addr)
		if err != nil {
			t.Logf("connection %d: %v", i, err)
			continue
		}
		ch, err := atkSession(c)
		if err != nil {
			c.Close()
			continue
		}
		atkRequest(ch, "env", gossh.Marshal(struct{ Key, Value string }{"LANG", "C.UTF-8"}))
		atkRequest(ch, "pty-req", pty)
		for k := range 3 {
			ch.SendRequest("window-change", false, win(uint32(81+k), 25))
		}
		if i < 20 {
			for sent := 0; sent < 2<<20; sent += len(chunk) {
				if atkWriteWithin(ch, chunk, time.Second) != nil {
					break
				}
			}
		} else {
			if !atkRequest(ch, "exec", gossh.Marshal(struct{ Command string }{"help"})) {
				stuck++
			}
			for k := range 3 {
				ch.SendRequest("window-change", false, win(uint32(90+k), 30))
			}
			time.Sleep(50 * time.Millisecond)
		}
		c.Close()
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(3 * time.Second)
	conns, sessions := a.srv.Counts()
	t.Logf("pty then hang-up: 20 connections with 2 MiB of stdin, 10 running help while resizing (%d of whose exec requests got no answer in 2 s); 3 s after the last hung up: %s, %d connections and %d sessions open", stuck, f.now(), conns, sessions)
}

// atkNoCommand: 10 connections from one address, each with a session
// channel and no command; is an eleventh let in, now and after 15 s?
func atkNoCommand(t *testing.T) {
	addr, a := atkArena(t)
	var cs []*gossh.Client
	for range 10 {
		c, err := atkAnon(addr)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
		if _, err := atkSession(c); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	try := func() string {
		c, err := atkAnon(addr)
		if err != nil {
			return "refused"
		}
		c.Close()
		return "let in"
	}
	first := try()
	time.Sleep(15 * time.Second)
	conns, _ := a.srv.Counts()
	t.Logf("no command: 10 connections holding a session channel and no command: an 11th is %s; 15 s later %d of them are open and an 11th is %s", first, conns, try())
}

// hogPlayer fills its worker's memory in its first turn.
var hogPlayer = []byte(`return { name = "Hog", run = function() local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1000) .. i end end }`)

// atkChecks: 8 submits of a memory-hungry player at once from one address
// (8 keys); how many checks run at once, and the memory of the server's
// child processes (the checks and their trial battles' workers).
func atkChecks(t *testing.T) {
	addr, _ := atkArena(t)
	var peakChecks, peakRSS atomic.Int64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			checks, rss := atkChildren()
			if int64(checks) > peakChecks.Load() {
				peakChecks.Store(int64(checks))
			}
			if rss > peakRSS.Load() {
				peakRSS.Store(rss)
			}
		}
	}()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := sshClient(t, addr, "hog"+strconv.Itoa(i))
			_, _, st := sshRun(t, c, "submit hog", hogPlayer)
			mu.Lock()
			statuses[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	t.Logf("checks: 8 submits of a memory-hungry player from one address: at most %d checks at once, child processes' RSS at most %.0f MB, all done in %.0f s (statuses %v)",
		peakChecks.Load(), float64(peakRSS.Load())/(1<<20), time.Since(start).Seconds(), statuses)
}

// atkChildren counts the check processes among this process's
// descendants and adds up the resident memory of all of them (Linux).
func atkChildren() (checks int, rss int64) {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	cmd := map[int]string{}
	mem := map[int]int64{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 22 {
			continue
		}
		parent[pid], _ = strconv.Atoi(fields[1])
		pages, _ := strconv.ParseInt(fields[21], 10, 64)
		mem[pid] = pages * int64(os.Getpagesize())
		line, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		cmd[pid] = string(bytes.ReplaceAll(line, []byte{0}, []byte{' '}))
	}
	self := os.Getpid()
	var below func(pid int) bool
	below = func(pid int) bool {
		for n := 0; n < 64 && pid > 1; n++ {
			pid = parent[pid]
			if pid == self {
				return true
			}
		}
		return false
	}
	for pid := range parent {
		if !below(pid) {
			continue
		}
		rss += mem[pid]
		if strings.Contains(cmd[pid], " check ") {
			checks++
		}
	}
	return checks, rss
}

// atkPlayersRace: players_per_user 2, five submits of new names at once
// from one key.
func atkPlayersRace(t *testing.T) {
	cfg := serveConfig(t)
	cfg.Serve.PlayersPerUser = 2
	addr := startArena(t, cfg)
	key := newKey(t)
	good := []byte(`return { name = "P%d", run = function(self) return MOVE, S end }`)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := keyClient(t, addr, "racer", key)
			_, _, st := sshRun(t, c, "submit p"+strconv.Itoa(i), fmt.Appendf(nil, string(good), i))
			mu.Lock()
			statuses[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	files, _ := filepath.Glob(filepath.Join(cfg.Serve.DataDir, "players", "racer", "*.lua"))
	t.Logf("players: players_per_user 2, 5 submits of new names at once from one key: %d stored (statuses %v)", len(files), statuses)
}

// atkQuotaBurn: before alice's first upload, another key logs in as alice
// and spends uploads_per_hour on broken scripts; can alice upload then?
func atkQuotaBurn(t *testing.T) {
	cfg := serveConfig(t)
	cfg.Serve.UploadsPerHour = 3
	addr := startArena(t, cfg)
	mallory := keyClient(t, addr, "alice", newKey(t))
	for range 3 {
		sshRun(t, mallory, "submit x", []byte("return {"))
	}
	alice := keyClient(t, addr, "alice", newKey(t))
	_, e, st := sshRun(t, alice, "submit mine", []byte(`return { name = "Mine", run = function(self) return MOVE, S end }`))
	t.Logf("quota: uploads_per_hour 3 spent by another key logged in as alice; alice's own first submit: status %d %s", st, strings.TrimSpace(e))
}

// atkNewKeys: 60 fresh keys from one address, each linking a bot under
// its own login (which claims that login as its user name) and hanging up
// at once. connections_per_minute is raised so that what the keys meet is
// the bound on new users, not the rate of connections.
func atkNewKeys(t *testing.T) {
	cfg := serveConfig(t)
	cfg.Serve.ConnectionsPerMinute = 10_000
	addr := startArena(t, cfg)
	statuses := map[int]int{}
	for i := range 60 {
		c := keyClient(t, addr, "k"+strconv.Itoa(i), newKey(t))
		st := -1 // no exit status
		if s, err := c.NewSession(); err == nil {
			s.Stdin = strings.NewReader("")
			var ee *gossh.ExitError
			if err := s.Run("bot b"); err == nil {
				st = 0
			} else if errors.As(err, &ee) {
				st = ee.ExitStatus()
			}
		}
		statuses[st]++
		c.Close()
	}
	data, _ := os.ReadFile(filepath.Join(cfg.Serve.DataDir, "users.json"))
	t.Logf("newkeys: 60 fresh keys from one address, each `bot b` under its own login: %d user names bound (statuses %v)",
		strings.Count(string(data), `"key"`), statuses)
}

func discardLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func listenLoopback() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
