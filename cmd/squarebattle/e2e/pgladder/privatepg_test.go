//go:build unix

package pgladder

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// privatePG is a PostgreSQL server of one test's own, on a free loopback
// port, which the test may stop and start again: restarting the shared
// server at PGTEST_URL would break the other packages' tests running
// beside this one. It is started as .ci/services starts the shared one
// (initdb, pg_ctl, as the postgres user when the test runs as root).
//
// Its methods are called from the test's goroutine only.
type privatePG struct {
	t    testing.TB
	bin  string   // the server's bin folder, /usr/lib/postgresql/N/bin
	dir  string   // the data folder is dir/data, the socket and log in dir
	as   []string // runuser -u postgres -- when root, else nothing
	port int
	// URL is the postgres:// URL of its database "postgres".
	URL string
}

// startPrivatePG initialises a cluster in a temporary folder and starts
// it; it is stopped and removed when the test ends. Without PostgreSQL's
// programs the test skips (fails under TOOLS_REQUIRED).
func startPrivatePG(t testing.TB) *privatePG {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		harness.SkipOrRequire(t, "PostgreSQL's server programs are not installed (/usr/lib/postgresql/*/bin): run .ci/services")
	}
	sort.Slice(bins, func(i, j int) bool { return pgMajor(bins[i]) < pgMajor(bins[j]) })
	p := &privatePG{t: t, bin: filepath.Dir(bins[len(bins)-1])}
	// t.TempDir is private to root; the server, not root, must own its
	// folder (PostgreSQL refuses to run as root).
	dir, err := os.MkdirTemp("", "squarebattle-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	p.dir = dir
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			harness.SkipOrRequire(t, "running as root, and no user postgres to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		p.as = []string{"runuser", "-u", "postgres", "--"}
	}
	p.port = freePort(t)
	p.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", p.port)
	p.pgctl("initdb", "initdb", "-D", p.data(), "-A", "trust", "-U", "postgres", "-E", "UTF8")
	p.Start()
	t.Cleanup(func() {
		// Stopped already when the test failed between a stop and a start.
		argv := append(append(append([]string{}, p.as...), filepath.Join(p.bin, "pg_ctl")), "-D", p.data(), "-m", "immediate", "-w", "stop")
		exec.Command(argv[0], argv[1:]...).Run()
	})
	return p
}

// pgMajor is the major version in a path /usr/lib/postgresql/N/bin/….
func pgMajor(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
	return n
}

func (p *privatePG) data() string { return filepath.Join(p.dir, "data") }

// pgctl runs one of the server's programs as the server's user, failing
// the test with its output when it fails.
func (p *privatePG) pgctl(what, prog string, args ...string) {
	p.t.Helper()
	argv := append(append(append([]string{}, p.as...), filepath.Join(p.bin, prog)), args...)
	out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		p.t.Fatalf("PostgreSQL %s: %v\n%s\n%s", what, err, out, tail(string(log), 2000))
	}
}

// Start starts the server and waits until it takes connections.
func (p *privatePG) Start() {
	p.t.Helper()
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c max_connections=100 "+
		"-c shared_preload_libraries=pg_stat_statements", p.port, p.dir)
	p.pgctl("start", "pg_ctl", "-D", p.data(), "-l", filepath.Join(p.dir, "log"), "-w", "-t", "60", "-o", opts, "start")
}

// Stop stops the server: mode "fast" ends every session cleanly, mode
// "immediate" kills the server as a crash would (it recovers from its
// log on the next Start).
func (p *privatePG) Stop(mode string) {
	p.t.Helper()
	p.pgctl("stop", "pg_ctl", "-D", p.data(), "-w", "-t", "60", "-m", mode, "stop")
}

// CreateDB creates database name and returns its URL.
func (p *privatePG) CreateDB(name string) string {
	p.t.Helper()
	admin, err := sql.Open("pgx", p.URL)
	if err != nil {
		p.t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		p.t.Fatal(err)
	}
	return strings.Replace(p.URL, "/postgres?", "/"+name+"?", 1)
}

// freePort is a loopback TCP port free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
