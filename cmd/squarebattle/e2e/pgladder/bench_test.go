//go:build linux

package pgladder

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// benchEnv are the benchmark's battles, longer than the tests' (four
// teams on 16×16 for 200 rounds, the ladder's convergence benchmark's),
// planned 8 ahead (the default), with a rescue timeout well above a
// battle, and the featured battle small, so that the ladder is most of
// the work.
var benchEnv = []string{"SQUAREBATTLE_SERVE_LADDER_TEAMS=4", "SQUAREBATTLE_SERVE_LADDER_SIZE=16",
	"SQUAREBATTLE_SERVE_LADDER_ROUNDS=200", "SQUAREBATTLE_SERVE_LADDER_RESCUE_SECONDS=120",
	"SQUAREBATTLE_SERVE_LADDER_AHEAD=8", "SQUAREBATTLE_SERVE_FEATURED_SIZE=8", "SQUAREBATTLE_ISOLATION_POOL_SIZE=4"}

// benchWarm is how many battles are rated before the clock starts: the
// processes are up, the schemas migrated, the queue flowing.
const benchWarm = 3

var benchDBs atomic.Int64

// BenchmarkLadderHosts measures the ladder's throughput and what the
// database costs a battle: the same seeded ladder (so the same battles)
// played in one process on SQLite with 1 and 2 ladder workers, and on
// PostgreSQL (a private server of the benchmark's) by 1 and 2 worker host
// processes (`ladder work --workers 1` each; the server plays none). One
// op is one battle rated. Reported besides ns/op:
//
//   - battles/min;
//   - cpu-ms/battle: the CPU time of every process of the setup (the
//     server, the hosts, their worker processes, PostgreSQL's server
//     processes) over the battles rated, and split by process: srv-,
//     host- and pg-cpu-ms/battle;
//   - xacts/battle and stmts/battle: transactions (pg_stat_database) and
//     statements (pg_stat_statements, BEGIN and COMMIT included) in the
//     ladder's database. PostgreSQL publishes a backend's counts at most
//     once a second, so a run's counts may miss its last second.
//
// Progress is read from the replays the server moves into its folder as
// it rates, so the benchmark adds no query to the database's counts.
//
//	go test ./cmd/squarebattle/e2e/pgladder -run '^$' -bench LadderHosts -benchtime 30x -count 3
func BenchmarkLadderHosts(b *testing.B) {
	bin := harness.Program(b)
	pg := startPrivatePG(b)
	admin, err := sql.Open("pgx", pg.URL)
	if err != nil {
		b.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		b.Fatal(err)
	}
	b.Logf("load average at the start: %s", loadAvg())
	for _, c := range []struct {
		name             string
		hosts, srvWorker int
	}{
		{"sqlite/workers=1", 0, 1},
		{"sqlite/workers=2", 0, 2},
		{"postgres/hosts=1", 1, 0},
		{"postgres/hosts=2", 2, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			data := b.TempDir()
			env := append(append([]string{}, benchEnv...), "SQUAREBATTLE_SERVE_LADDER_WORKERS="+strconv.Itoa(c.srvWorker))
			var db string
			if c.hosts > 0 {
				db = fmt.Sprintf("bench_%d", benchDBs.Add(1))
				env = append(env, "SQUAREBATTLE_SERVE_LADDER_DB="+pg.CreateDB(db))
			}
			srv := serve(b, bin, data, env...)
			var hosts []*proc
			for range c.hosts {
				hosts = append(hosts, start(b, bin, "event=ladder_work", benchEnv, "ladder", "work", "--db", pg.dbURL(db), "--workers", "1"))
			}
			waitRated(b, data, benchWarm)
			if db != "" {
				if _, err := admin.Exec(`SELECT pg_stat_statements_reset()`); err != nil {
					b.Fatal(err)
				}
			}
			before := measure(b, admin, pg, db, srv, hosts)
			b.ResetTimer()
			waitRated(b, data, benchWarm+b.N)
			b.StopTimer()
			after := measure(b, admin, pg, db, srv, hosts)
			n := float64(b.N)
			b.ReportMetric(n/after.at.Sub(before.at).Minutes(), "battles/min")
			srvCPU, hostCPU, pgCPU := after.srv-before.srv, after.hosts-before.hosts, 0.0
			if c.hosts > 0 {
				pgCPU = after.pg - before.pg
				b.ReportMetric(float64(after.xacts-before.xacts)/n, "xacts/battle")
				b.ReportMetric(float64(after.stmts-before.stmts)/n, "stmts/battle")
				b.ReportMetric(hostCPU/n, "host-cpu-ms/battle")
				b.ReportMetric(pgCPU/n, "pg-cpu-ms/battle")
				if b.N > 1 {
					topStatements(b, admin, db, b.N)
				}
			}
			b.ReportMetric(srvCPU/n, "srv-cpu-ms/battle")
			b.ReportMetric((srvCPU+hostCPU+pgCPU)/n, "cpu-ms/battle")
		})
	}
	b.Logf("load average at the end: %s", loadAvg())
}

// dbURL is the URL of database name on p ("" when name is "").
func (p *privatePG) dbURL(name string) string {
	if name == "" {
		return ""
	}
	return strings.Replace(p.URL, "/postgres?", "/"+name+"?", 1)
}

// waitRated waits until n replays are in the server's folder data: the
// server moves a battle's replay there when it rates it.
func waitRated(b testing.TB, data string, n int) {
	b.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		files, _ := filepath.Glob(filepath.Join(data, "ladder", "replays", "L*.sbr"))
		if len(files) >= n {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d battles rated after 10 minutes", len(files), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sample is what the benchmark reads at the start and the end.
type sample struct {
	at             time.Time
	srv, hosts, pg float64 // CPU ms of the process trees
	xacts, stmts   int64   // in the ladder's database
}

// measure reads the clock, the process trees' CPU and, with a database
// db, its counts of transactions and statements.
func measure(b testing.TB, admin *sql.DB, pg *privatePG, db string, srv *proc, hosts []*proc) sample {
	b.Helper()
	s := sample{at: time.Now()}
	procs := readProcs()
	s.srv = procs.treeCPU(srv.Process.Pid)
	for _, h := range hosts {
		s.hosts += procs.treeCPU(h.Process.Pid)
	}
	if db == "" {
		return s
	}
	if pid, err := pg.postmaster(); err == nil {
		s.pg = procs.treeCPU(pid)
	} else {
		b.Fatal(err)
	}
	if err := admin.QueryRow(`SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = $1`, db).Scan(&s.xacts); err != nil {
		b.Fatal(err)
	}
	if err := admin.QueryRow(`SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1`, db).Scan(&s.stmts); err != nil {
		b.Fatal(err)
	}
	return s
}

// topStatements logs the statements run most often in database db since
// the last pg_stat_statements_reset, per battle of n.
func topStatements(b testing.TB, admin *sql.DB, db string, n int) {
	b.Helper()
	rows, err := admin.Query(`SELECT calls, regexp_replace(query, '\s+', ' ', 'g') FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
		WHERE d.datname = $1 ORDER BY calls DESC LIMIT 12`, db)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out strings.Builder
	for rows.Next() {
		var calls int64
		var q string
		if err := rows.Scan(&calls, &q); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&out, "\n%6.2f  %.110s", float64(calls)/float64(n), q)
	}
	b.Logf("statements per battle in %s:%s", db, out.String())
}

// postmaster is the server's process id, from its postmaster.pid.
func (p *privatePG) postmaster() (int, error) {
	data, err := os.ReadFile(filepath.Join(p.data(), "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	return strconv.Atoi(strings.TrimSpace(line))
}

// loadAvg is /proc/loadavg's three load averages.
func loadAvg() string {
	data, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// procs is every process's parent and CPU time, from /proc.
type procs struct {
	parent map[int]int
	cpu    map[int]float64 // ms: its own, and its children's that it reaped
}

// clockTick is the unit of /proc's times, USER_HZ: 100 on Linux.
const clockTick = 10 * time.Millisecond

func readProcs() procs {
	p := procs{parent: map[int]int{}, cpu: map[int]float64{}}
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue
		}
		// The fields after the command, which is in parentheses and may
		// hold anything: state ppid … utime(14) stime cutime cstime.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		var ticks float64
		for _, k := range f[11:15] {
			v, _ := strconv.ParseFloat(k, 64)
			ticks += v
		}
		p.parent[pid] = ppid
		p.cpu[pid] = ticks * float64(clockTick/time.Millisecond)
	}
	return p
}

// treeCPU is the CPU time, in ms, of pid and every process under it.
func (p procs) treeCPU(pid int) float64 {
	var ms float64
	for q := range p.cpu {
		for a := q; a > 1; a = p.parent[a] {
			if a == pid {
				ms += p.cpu[q]
				break
			}
		}
	}
	return ms
}
