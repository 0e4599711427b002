package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/bottest"
	"github.com/squarebattle/squarebattle/engine/bot/process"
)

// BenchmarkBotRoundSSH measures what a remote bot's SSH channel costs a
// round against the same bot over stdio: BenchmarkBotRound's full 64×64
// arena (4 teams of 1024 squares, strategies wait and shift), played by
// four reference bots (refbot) either as the engine's child processes
// over stdio (stdio, stdio-p2) or each piped through OpenSSH's client
// (`ssh HOST bot NAME`, a process of its own, as on an author's machine)
// to an in-process serve on 127.0.0.1 whose hub hands the battle the
// connections (ssh, ssh-p2). The engine process's CPU (cpu-ns/op) then
// includes the server's side of SSH (encryption, the channel, the link's
// reader and writer) and excludes the clients', as it excludes the bots'.
// B/unit-in and B/unit-out are the protocol's bytes a square a round (the
// same either way); over SSH, wire-B/unit-in and wire-B/unit-out are the
// TCP bytes (SSH's framing, padding and MAC included). paired plays the
// four battles in turns, a round of each, and reports each SSH battle's
// wall time and engine CPU over its stdio twin's: the ratios of one run.
func BenchmarkBotRoundSSH(b *testing.B) {
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("needs OpenSSH's ssh on PATH")
	}
	ar := startBenchArena(b)
	for _, moves := range []string{"wait", "shift"} {
		b.Run(moves, func(b *testing.B) {
			bb := newBotBench(moves)
			for _, proto := range []int{1, 2} {
				suffix := map[int]string{1: "", 2: "-p2"}[proto]
				b.Run("stdio"+suffix, func(b *testing.B) {
					conns, count := bb.programs(b, proto, process.Stdio)
					bt, done := bb.bots(b, conns)
					defer done()
					stepRounds(b, bt, count)
				})
				b.Run("ssh"+suffix, func(b *testing.B) {
					conns, count := ar.programs(b, bb, proto)
					bt, done := bb.bots(b, conns)
					defer done()
					bt.Step() // the first round (protocol 2's is full)
					to0, from0 := ar.toBots.Load(), ar.fromBots.Load()
					stepRounds(b, bt, count)
					units := float64((b.N + 1) * benchTeams * 1024) // stepRounds' warm-up round too
					b.ReportMetric(float64(ar.toBots.Load()-to0)/units, "wire-B/unit-in")
					b.ReportMetric(float64(ar.fromBots.Load()-from0)/units, "wire-B/unit-out")
				})
			}
			b.Run("paired", func(b *testing.B) {
				names := []string{"stdio", "ssh", "stdio-p2", "ssh-p2"}
				var battles []*engine.Battle
				add := func(bt *engine.Battle, done func()) {
					b.Cleanup(done)
					bt.Step() // warm up
					battles = append(battles, bt)
				}
				for _, proto := range []int{1, 2} {
					conns, _ := bb.programs(b, proto, process.Stdio)
					add(bb.bots(b, conns))
					conns, _ = ar.programs(b, bb, proto)
					add(bb.bots(b, conns))
				}
				cpu, wall := stepInTurns(b, battles)
				for i := 1; i < len(battles); i += 2 {
					b.ReportMetric(float64(wall[i])/float64(wall[i-1]), names[i]+"/"+names[i-1])
					b.ReportMetric(float64(cpu[i])/float64(cpu[i-1]), names[i]+"-cpu/"+names[i-1]+"-cpu")
				}
				checkTurns(b, battles, names)
			})
		})
	}
}

// benchArena is a serve on 127.0.0.1 for benchmarks, counting the bytes
// its connections carry, and the OpenSSH client options to reach it.
type benchArena struct {
	a   *serveArena
	ssh []string // ssh and its options, up to the destination
	// toBots and fromBots are the bytes the server's connections wrote
	// and read.
	toBots, fromBots atomic.Int64
	next             atomic.Int64 // names the bot connections
}

func startBenchArena(b *testing.B) *benchArena {
	cfg := config.Default()
	cfg.Serve.DataDir = b.TempDir()
	cfg.Serve.Ladder.Enabled = false
	cfg.Isolation.PoolSize = 1
	cfg.Serve.BotConnectionsPerUser, cfg.Serve.BotConnections, cfg.Serve.PlayersPerUser = 1000, 1000, 0
	cfg.Serve.NewUsersPerIPHour = 100000
	cfg.Serve.Sessions, cfg.Serve.SessionsPerIP, cfg.Serve.ConnectionsPerMinute = 1000, 1000, 100000
	// The featured battle, which the hall always plays, plays one tiny
	// round now and then: the process's CPU is the bots' battles'.
	cfg.Serve.FeaturedPlayers, cfg.Serve.FeaturedSize, cfg.Serve.FeaturedRounds = "explorer", 2, 1
	a, err := newArena(cfg, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		b.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ar := &benchArena{a: a}
	go a.srv.Serve(countingListener{Listener: l, read: &ar.fromBots, written: &ar.toBots})
	b.Cleanup(func() {
		a.srv.Shutdown(b.Context())
		a.close()
	})
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		b.Fatal(err)
	}
	key := filepath.Join(b.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, pem.EncodeToMemory(block), 0o600); err != nil {
		b.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(l.Addr().String())
	ar.ssh = []string{"ssh", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-i", key, "-p", port, "bench@127.0.0.1"}
	return ar
}

// programs starts the reference bot four times, each piped through its
// own OpenSSH client as `bot NAME`, and claims the four connections from
// the hub, as a battle of the arena would.
func (ar *benchArena) programs(b *testing.B, bb botBench, proto int) ([]bot.Conn, func() (in, out int64)) {
	path, err := refbot()
	if err != nil {
		b.Fatal(err)
	}
	var counted []*bottest.Counting
	var conns []bot.Conn
	for range benchTeams {
		name := fmt.Sprintf("ref%d", ar.next.Add(1))
		toBot, fromSSH, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		toSSH, fromBot, err := os.Pipe()
		if err != nil {
			b.Fatal(err)
		}
		ref := exec.Command(path, "-"+bb.moves, "-protocol", strconv.Itoa(proto))
		ref.Stdin, ref.Stdout = toBot, fromBot
		cl := exec.Command(ar.ssh[0], append(ar.ssh[1:], "bot", name)...)
		cl.Stdin, cl.Stdout = toSSH, fromSSH
		var clErr strings.Builder
		cl.Stderr = &clErr
		for _, c := range []*exec.Cmd{ref, cl} {
			if err := c.Start(); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { c.Process.Kill(); c.Wait() })
		}
		for _, f := range []*os.File{toBot, fromSSH, toSSH, fromBot} {
			f.Close() // the children's now
		}
		conn, err := ar.claim("bench." + name)
		if err != nil {
			b.Fatalf("%v; ssh said %q", err, clErr.String())
		}
		c := &bottest.Counting{Conn: conn}
		counted, conns = append(counted, c), append(conns, c)
	}
	return conns, func() (in, out int64) {
		for _, c := range counted {
			in, out = in+c.In.Load(), out+c.Out.Load()
		}
		return in, out
	}
}

// claim waits for bot id's connection and claims it.
func (ar *benchArena) claim(id string) (bot.Conn, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		if ar.a.bots.free(id) {
			if c, err := ar.a.bots.claim(id); err == nil {
				return c, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("bot %s not connected after 30 s", id)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// countingListener counts the bytes its connections read and write.
type countingListener struct {
	net.Listener
	read, written *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{Conn: c, read: l.read, written: l.written}, nil
}

type countingConn struct {
	net.Conn
	read, written *atomic.Int64
}

func (c countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}
