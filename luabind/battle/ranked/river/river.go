// Package river hands the ladder's battles to worker hosts through River
// (github.com/riverqueue/river), a job queue kept in the ladder's own
// PostgreSQL database: `squarebattle serve --db postgres://…` plans the
// battles and `squarebattle ladder work --db postgres://…`, on any number
// of hosts, plays them and writes their results and replays back.
//
// Why a job queue and why River: a battle handed to a host that dies must
// be played again elsewhere, and a battle must reach exactly one live host
// at a time; River takes jobs with FOR UPDATE SKIP LOCKED, wakes idle hosts
// with LISTEN/NOTIFY, rescues the jobs of a host gone silent after a
// timeout and retries failed ones, on the database the ladder already
// needs, so nothing else is to be run. Its jobs are inserted in the
// transaction that plans the battle, so a battle is never without its job.
//
// What is whose:
//
//   - The server alone plans and rates (ladder.Settle, in plan order: the
//     table is the one a single process would reach with the same seed).
//     Battles that seat a remote bot, whose connection only the server
//     holds, and rule mod battles, whose game folder only the server has,
//     go to the server's own queue (QueueServer); SquareBattle battles of
//     Lua players to the hosts' (QueueHosts), whose sources are all in the
//     database.
//   - A host plays a battle from the stored sources and records its
//     outcome (ladder.Record) with its replay, uploaded into the table
//     ladder_replays in the same transaction; the server moves the replay
//     into its replay folder when it rates the battle.
//   - A host killed mid-battle loses nothing: its job is rescued after
//     serve.ladder.rescue_seconds and the battle played again by another
//     host; it is counted once (Record keeps the first outcome, and a
//     battle is a pure function of its inputs, so every outcome is the
//     same anyway).
//
// Concurrency: a DB may be used from any goroutine; Work and Serve block
// until their context ends.
package river

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	rq "github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverdatabasesql"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"github.com/squarebattle/squarebattle/engine/ladder/postgres"
)

// The queues.
const (
	// QueueHosts holds the battles any host can play.
	QueueHosts = "squarebattle_ladder"
	// QueueServer holds the battles only the server can play, and the
	// requests to settle.
	QueueServer = "squarebattle_ladder_server"
)

// MaxReplay is the largest replay a host uploads; a larger one is not
// kept (the battle's result is).
const MaxReplay = 64 << 20

// maxAttempts is how often River hands a job out. The ladder gives a
// battle up after its own MaxTries starts; this only bounds a job that
// keeps failing before it starts (the database away for long).
const maxAttempts = 100

// fetchCooldown is the least time between two fetches of a client's jobs.
const fetchCooldown = 5 * time.Millisecond

// migrateLock is the advisory lock held while River's tables are migrated
// ("SBRIVER").
const migrateLock = 0x5342524956455200

// PlayArgs is the job of playing one battle.
type PlayArgs struct {
	Battle int64 `json:"battle"`
}

// Kind names the job in River's table.
func (PlayArgs) Kind() string { return "squarebattle_ladder_play" }

// SettleArgs is a host's word to the server that a battle was recorded.
type SettleArgs struct{}

// Kind names the job in River's table.
func (SettleArgs) Kind() string { return "squarebattle_ladder_settle" }

// DB is the ladder in PostgreSQL with its job queue.
type DB struct {
	// Store is the ladder's store (engine/ladder/postgres).
	Store *postgres.Store
	pool  *pgxpool.Pool
	// insert puts jobs in the ladder's own database/sql transactions.
	insert *rq.Client[*sql.Tx]
	log    *slog.Logger
}

// Open connects to the database at url, brings the ladder's and River's
// schemas up to date (idempotently; processes starting at once migrate one
// after the other) and returns the DB. log may be nil.
func Open(ctx context.Context, url string, log *slog.Logger) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	st, err := postgres.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		st.Close()
		return nil, err
	}
	cfg.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	d := &DB{Store: st, pool: pool, log: log}
	if err := d.migrate(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("the job queue's tables: %w", err)
	}
	d.insert, err = rq.NewClient(riverdatabasesql.New(st.DB()), &rq.Config{Logger: quiet(log)})
	if err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// migrate applies River's migrations and creates the replays' table,
// under an advisory lock.
func (d *DB) migrate(ctx context.Context) error {
	conn, err := d.Store.DB().Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, int64(migrateLock)); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrateLock))
	m, err := rivermigrate.New(riverpgxv5.New(d.pool), &rivermigrate.Config{Logger: quiet(d.log)})
	if err != nil {
		return err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS ladder_replays (battle BIGINT PRIMARY KEY, data BYTEA NOT NULL)`)
	return err
}

// Close closes the connections.
func (d *DB) Close() error {
	d.pool.Close()
	return d.Store.Close()
}

// quiet passes River's own warnings and errors on, not its chatter.
func quiet(log *slog.Logger) *slog.Logger {
	return slog.New(levelAtLeast{log.Handler(), slog.LevelWarn})
}

type levelAtLeast struct {
	slog.Handler
	min slog.Level
}

func (h levelAtLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

// uniquePlay makes a battle's job unique while it is waiting or running:
// the server may hand a battle out again when it cannot tell (a restart),
// and the queue keeps one.
var uniquePlay = rq.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning,
	rivertype.JobStateScheduled, rivertype.JobStateRetryable,
}}

// playOpts are the insert options of battle b's job on queue.
func playOpts(queue string) *rq.InsertOpts {
	return &rq.InsertOpts{Queue: queue, MaxAttempts: maxAttempts, UniqueOpts: uniquePlay}
}

// retryPolicy tries a failed job again soon: a battle is failed by the
// server's faults only (a host stopping, the database away), and the
// ladder bounds how often it is played.
type retryPolicy struct{}

func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(time.Duration(min(job.Attempt, 30)) * time.Second)
}

// clientConfig is the configuration of a client that works queues.
func (d *DB) clientConfig(queues map[string]int, workers *rq.Workers, rescue time.Duration) *rq.Config {
	qs := map[string]rq.QueueConfig{}
	for q, n := range queues {
		if n > 0 {
			qs[q] = rq.QueueConfig{MaxWorkers: n}
		}
	}
	if rescue <= 0 {
		rescue = 5 * time.Minute
	}
	// A battle held longer than rescue is stopped on its host and played
	// again: River's rescuer only takes back jobs that have a timeout,
	// and a host that died cannot say so.
	//
	// A client fetches jobs at most every FetchCooldown: River's 100 ms
	// default capped a host playing one battle at a time at 600 battles a
	// minute, whatever the battle's length (docs/performance.md, "The
	// ladder on worker hosts"). A fetch is one query, made when a job
	// ends or a notification comes, so a shorter one costs only while
	// there is work.
	return &rq.Config{Queues: qs, Workers: workers, Logger: quiet(d.log), JobTimeout: rescue, RescueStuckJobsAfter: rescue,
		MaxAttempts: maxAttempts, RetryPolicy: retryPolicy{}, FetchCooldown: fetchCooldown, FetchPollInterval: 2 * time.Second}
}

// run starts a client and stops it when ctx ends: battles in flight are
// cancelled and played again (by this host or another).
func run(ctx context.Context, c *rq.Client[pgxTx]) error {
	if err := c.Start(ctx); err != nil {
		return err
	}
	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := c.StopAndCancel(sctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
