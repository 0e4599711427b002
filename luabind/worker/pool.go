package worker

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/squarebattle/squarebattle/engine/oslimit"
)

// Options configure a Pool. Zero fields take the defaults of Defaults.
type Options struct {
	// Command starts a worker: the program and its arguments, to which the
	// pool adds its flags. Empty: this executable with the hidden
	// subcommand "__worker".
	Command []string
	// Size is how many idle workers the pool keeps for the next battle.
	// Workers beyond it are started when a battle needs them and stopped
	// when it ends, so a battle never waits for a worker.
	Size int
	// MemoryMiB is each worker's memory: GOMEMLIMIT, and its address space
	// (RLIMIT_AS) with room for the Go runtime's reservations.
	MemoryMiB int
	// CPUSeconds is each worker's lifetime CPU time (RLIMIT_CPU); the pool
	// replaces a worker that used half of it.
	CPUSeconds int
	// CallTimeout is the wall-clock floor of one request; a request about
	// n squares may take CallTimeout + n × limits.instructions ×
	// PerInstruction. Past it the worker is killed.
	CallTimeout time.Duration
	// PerInstruction is the wall-clock allowance per budgeted instruction,
	// many times what an instruction costs (tens of nanoseconds).
	PerInstruction time.Duration
	// MaxCrashes retires a team whose worker died that many times in one
	// battle: its squares wait for the rest of it.
	MaxCrashes int
	// Nice, when above 0, lowers the workers' scheduling priority (the
	// nice value, up to 19): the ladder's battles play in such a pool so
	// that the CPU goes first to the battles people watch.
	Nice int
}

// Defaults are the settings config.Default mirrors.
func Defaults() Options {
	return Options{Size: 4, MemoryMiB: 1024, CPUSeconds: 3600, CallTimeout: 10 * time.Second,
		PerInstruction: time.Microsecond, MaxCrashes: 3}
}

// Pool starts worker processes and keeps idle ones for reuse. It is safe
// for concurrent use: battles running in parallel take workers from it.
type Pool struct {
	o    Options
	mu   sync.Mutex
	idle []*proc
	all  map[*proc]struct{}
	shut bool
	keep int // idle workers kept: Size, or more after Reserve

	catMu    sync.Mutex
	catalogs []*catalogMsg // encoded catalogs, most recent last
}

// NewPool starts a pool and checks it can start a worker, which it keeps
// idle.
func NewPool(o Options) (*Pool, error) {
	d := Defaults()
	if len(o.Command) == 0 {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("worker: %w", err)
		}
		o.Command = []string{exe, "__worker"}
	}
	if o.Size <= 0 {
		o.Size = d.Size
	}
	if o.MemoryMiB <= 0 {
		o.MemoryMiB = d.MemoryMiB
	}
	if o.CPUSeconds <= 0 {
		o.CPUSeconds = d.CPUSeconds
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = d.CallTimeout
	}
	if o.PerInstruction <= 0 {
		o.PerInstruction = d.PerInstruction
	}
	if o.MaxCrashes <= 0 {
		o.MaxCrashes = d.MaxCrashes
	}
	p := &Pool{o: o, all: map[*proc]struct{}{}, keep: o.Size}
	w, err := p.get()
	if err != nil {
		return nil, err
	}
	p.put(w, 0)
	return p, nil
}

// Close stops every worker; seats still in use find theirs gone and count
// a crash, so close the pool after the battles.
func (p *Pool) Close() {
	p.mu.Lock()
	p.shut = true
	all := make([]*proc, 0, len(p.all))
	for w := range p.all {
		all = append(all, w)
	}
	p.idle = nil
	p.mu.Unlock()
	for _, w := range all {
		w.stop()
	}
}

// Pids lists the process ids of the pool's live workers, for tests and
// diagnostics.
func (p *Pool) Pids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var pids []int
	for w := range p.all {
		pids = append(pids, w.cmd.Process.Pid)
	}
	return pids
}

// maxReserve bounds Reserve, as config bounds isolation.pool_size.
const maxReserve = 4096

// Reserve has the pool keep at least n idle workers from now on (at most
// maxReserve), for a caller that will play n seats at once, battle after
// battle: a tournament of two battles at a time of four teams needs eight
// workers, and with fewer kept it would start and stop the rest, each
// compiling the catalog again, for every battle.
func (p *Pool) Reserve(n int) {
	p.mu.Lock()
	p.keep = max(p.keep, min(n, maxReserve))
	p.mu.Unlock()
}

// get takes an idle worker or starts one.
func (p *Pool) get() (*proc, error) {
	p.mu.Lock()
	if p.shut {
		p.mu.Unlock()
		return nil, errors.New("worker pool closed")
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.startKept(p.o.MemoryMiB, 0)
}

// startKept starts a worker with memMiB of memory and counts it among
// the pool's, which Close stops.
func (p *Pool) startKept(memMiB, gcPercent int) (*proc, error) {
	w, err := p.start(memMiB, gcPercent)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shut {
		w.stop()
		return nil, errors.New("worker pool closed")
	}
	p.all[w] = struct{}{}
	return w, nil
}

// put gives back a healthy worker that has used cpuMillis of CPU.
func (p *Pool) put(w *proc, cpuMillis int64) {
	p.mu.Lock()
	keep := !p.shut && len(p.idle) < p.keep && cpuMillis < int64(p.o.CPUSeconds)*500
	if keep {
		p.idle = append(p.idle, w)
	} else {
		delete(p.all, w)
	}
	p.mu.Unlock()
	if !keep {
		w.stop()
	}
}

// discard kills a worker that failed.
func (p *Pool) discard(w *proc) {
	p.mu.Lock()
	delete(p.all, w)
	p.mu.Unlock()
	w.stop()
}

// start launches a worker process with memMiB of memory; gcPercent, if
// not 0, is its GOGC.
func (p *Pool) start(memMiB, gcPercent int) (*proc, error) {
	dir, err := os.MkdirTemp("", "squarebattle-worker-")
	if err != nil {
		return nil, fmt.Errorf("worker: %w", err)
	}
	args := append(append([]string(nil), p.o.Command[1:]...),
		"-memory-mib", strconv.Itoa(memMiB), "-cpu-seconds", strconv.Itoa(p.o.CPUSeconds))
	c := exec.Command(p.o.Command[0], args...)
	c.Dir = dir
	// A minimal environment: nothing of the user's reaches the worker.
	c.Env = []string{
		"GOMEMLIMIT=" + strconv.Itoa(memMiB) + "MiB",
		// One processor: a worker runs one Lua state on one goroutine, and
		// with a second its runtime would spin up threads to look for work
		// at every request (three more system calls a round trip).
		"GOMAXPROCS=1",
		"GOTRACEBACK=single",
	}
	if gcPercent > 0 {
		c.Env = append(c.Env, "GOGC="+strconv.Itoa(gcPercent))
	}
	if raceEnabled {
		c.Env = append(c.Env, "GORACE="+os.Getenv("GORACE"))
	}
	c.ExtraFiles = nil // only stdin, stdout and stderr
	oslimit.Prepare(c)
	w := &proc{cmd: c, dir: dir, exited: make(chan struct{})}
	c.Stderr = &w.stderr
	inR, inW, err := pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("worker: %w", err)
	}
	outR, outW, err := pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("worker: %w", err)
	}
	c.Stdin, c.Stdout = inR, outW
	err = c.Start()
	inR.Close() // the worker's ends: the parent keeps none
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("worker: %w", err)
	}
	if p.o.Nice > 0 {
		// Best effort: a worker that keeps its priority still plays
		// the same battle.
		_ = setNice(c.Process.Pid, min(p.o.Nice, 19))
	}
	w.in, w.out = inW, bufio.NewReaderSize(outR, 64<<10)
	go func() {
		_ = c.Wait()
		outR.Close()
		os.RemoveAll(dir)
		close(w.exited)
	}()
	return w, nil
}

// proc is one worker process as the parent sees it. One seat uses it at a
// time.
type proc struct {
	cmd      *exec.Cmd
	dir      string
	in       io.WriteCloser
	out      *bufio.Reader
	stderr   capped
	exited   chan struct{}
	buf      []byte
	timedOut atomic.Bool
	stopped  atomic.Bool
	catalogs heldCatalogs // catalogs the worker holds, as it keeps them
	sendErr  error        // how writing the request in flight failed
	clock    *time.Timer  // the wall clock of the request in flight, reused
}

// errTimeout is a request that ran past its wall-clock bound.
var errTimeout = errors.New("wall-clock bound exceeded")

// call sends one request frame and reads the answer, of at most limit
// bytes, killing the worker if it takes longer than timeout. The answer's
// body (after its kind byte) is valid until the next call.
func (w *proc) call(frame []byte, limit int, timeout time.Duration) (byte, []byte, error) {
	w.send(frame)
	return w.recv(limit, timeout)
}

// send writes a request frame; recv reads the answer. A write error is
// kept for recv to return.
func (w *proc) send(frame []byte) {
	_, w.sendErr = w.in.Write(frame)
}

// recv reads the answer to the request send wrote, of at most limit bytes,
// killing the worker if it does not come within timeout. The wall clock
// starts here, when the parent starts to wait, not when it sent: while it
// waited for other teams' workers an answer may have been ready in the
// pipe for a long time, and an answer ready in time must never cost a
// kill (that would change the battle). A worker that hangs is still killed
// within timeout of the parent's turn to wait for it.
func (w *proc) recv(limit int, timeout time.Duration) (byte, []byte, error) {
	err := w.sendErr
	w.sendErr = nil
	if err == nil {
		// One timer for the worker's life, re-armed for each answer:
		// a tournament reads hundreds of thousands of them.
		if w.clock == nil {
			w.clock = time.AfterFunc(timeout, w.expire)
		} else {
			w.clock.Reset(timeout)
		}
		w.buf, err = readFrame(w.out, w.buf, limit)
		w.clock.Stop()
	}
	if w.timedOut.Load() {
		return 0, nil, errTimeout
	}
	if err != nil {
		return 0, nil, err
	}
	return w.buf[0], w.buf[1:], nil
}

// expire is the wall clock running out: the worker is killed, and the
// answer being read fails as a timeout.
func (w *proc) expire() {
	w.timedOut.Store(true)
	oslimit.Kill(w.cmd)
}

// stop kills the worker and waits for it to be reaped.
func (w *proc) stop() {
	if w.stopped.Swap(true) {
		<-w.exited
		return
	}
	w.in.Close()
	oslimit.Kill(w.cmd)
	<-w.exited
}

// cause names why a worker died, from what it wrote on stderr (the Go
// runtime's "fatal error: …" or "panic: …") or how it exited.
func (w *proc) cause() string {
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
	}
	if line := w.stderr.firstFatal(); line != "" {
		return line
	}
	if st := w.cmd.ProcessState; st != nil {
		return st.String()
	}
	return "no answer"
}

// capped keeps the first bytes a worker writes on stderr.
type capped struct {
	mu  sync.Mutex
	buf []byte
}

const stderrCap = 16 << 10

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := stderrCap - len(c.buf); room > 0 {
		c.buf = append(c.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (c *capped) firstFatal() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, line := range splitLines(string(c.buf)) {
		for _, prefix := range []string{"fatal error: ", "runtime: out of memory", "panic: ", "worker: "} {
			if len(line) >= len(prefix) && line[:len(prefix)] == prefix {
				return line
			}
		}
	}
	return ""
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}
