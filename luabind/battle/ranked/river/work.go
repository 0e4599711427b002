package river

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	rq "github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlstore"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

type pgxTx = pgx.Tx

// WorkOptions configure a worker host.
type WorkOptions struct {
	// Runner plays the battles: its Ladder over d.Store, its Games (the
	// SquareBattle game as this host is configured), its Replays a
	// folder of this host's where a replay is written before it is
	// uploaded, its Walls. Its Recorded is set by Work.
	Runner ranked.Options
	// Workers is how many battles this host plays at once.
	Workers int
	// RescueAfter is how long a battle may be held before the queue takes
	// its host for dead (serve.ladder.rescue_seconds; every process of a
	// ladder should say the same).
	RescueAfter time.Duration
}

// Work plays the hosts' battles until ctx ends. A battle it was playing
// then is played again, here or elsewhere.
func (d *DB) Work(ctx context.Context, o WorkOptions) error {
	reps := o.Runner.Replays
	o.Runner.Recorded = func(tx ladder.Tx, b ladder.Battle) error { return upload(tx, b, reps.Path(b.ID)) }
	o.Runner.Workers = 1 // River runs the goroutines
	r, err := ranked.New(o.Runner)
	if err != nil {
		return err
	}
	workers := rq.NewWorkers()
	rq.AddWorker(workers, &playWorker{d: d, l: o.Runner.Ladder, r: r, replays: reps, upload: true})
	rq.AddWorker(workers, &settleWorker{}) // known, so a leader's rescuer keeps the server's jobs
	c, err := rq.NewClient(riverpgxv5.New(d.pool), d.clientConfig(map[string]int{QueueHosts: max(o.Workers, 1)}, workers, o.RescueAfter))
	if err != nil {
		return err
	}
	return run(ctx, c)
}

// upload keeps a host's replay in ladder_replays, in the transaction that
// records the battle; a replay too large, or missing, is not kept.
func upload(tx ladder.Tx, b ladder.Battle, file string) error {
	stx, ok := sqlstore.SQLTx(tx)
	if !ok {
		return errors.New("river: the ladder is not in PostgreSQL")
	}
	data, err := readBounded(file, MaxReplay)
	if err != nil {
		_, err = stx.Exec(`UPDATE battles SET replay = '' WHERE id = $1`, b.ID)
		return err
	}
	_, err = stx.Exec(`INSERT INTO ladder_replays (battle, data) VALUES ($1, $2) ON CONFLICT (battle) DO NOTHING`, b.ID, data)
	return err
}

// readBounded reads a file of at most limit bytes.
func readBounded(file string, limit int64) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: over %d bytes", file, limit)
	}
	return data, err
}

// playWorker plays one battle per job.
type playWorker struct {
	rq.WorkerDefaults[PlayArgs]
	d       *DB
	l       *ladder.Ladder
	r       *ranked.Runner
	replays *ranked.Replays
	upload  bool // a host's: its replay goes to the database, not its folder
	// settle, on the server, settles at once; a host asks the server.
	settle func(context.Context)
}

func (w *playWorker) Work(ctx context.Context, job *rq.Job[PlayArgs]) error {
	id := ladder.BattleID(job.Args.Battle)
	b, err := w.l.Battle(ctx, id)
	if errors.Is(err, ladder.ErrNotFound) {
		return rq.JobCancel(err)
	}
	if err != nil {
		return err
	}
	switch b.State {
	case ladder.Played, ladder.Done, ladder.Failed:
		return nil // played already (a host taken for dead came back)
	}
	if w.upload {
		defer os.Remove(w.replays.Path(id))
	}
	done, err := w.r.Play(ctx, b)
	if err != nil {
		w.d.waitUp(ctx)
		return err
	}
	if done.State == ladder.Queued {
		return fmt.Errorf("battle %d: %s (to be played again)", id, done.Error)
	}
	if w.settle != nil {
		w.settle(ctx)
	} else if _, err := w.d.insert.Insert(ctx, SettleArgs{}, &rq.InsertOpts{Queue: QueueServer}); err != nil {
		// The server settles on its own clock too.
		w.d.log.Warn("ladder: asking the server to settle", "event", "error", "battle", int64(id), "reason", err.Error())
	}
	return nil
}

// settleWorker settles the ladder on the server's word; on a host it is
// registered only so that the host, when River's leader, knows the kind.
type settleWorker struct {
	rq.WorkerDefaults[SettleArgs]
	settle func(context.Context)
}

func (w *settleWorker) Work(ctx context.Context, job *rq.Job[SettleArgs]) error {
	if w.settle == nil {
		return errors.New("river: settle jobs are the server's")
	}
	w.settle(ctx)
	return nil
}

// waitUp waits until the database answers, or ctx ends. A job whose
// battle could not be recorded (the database away) ends only then: River
// records a job's end in the database and gives up after some 7 s of
// trying, which would leave the job taken — and the battle waiting, and
// the ladder's ratings behind it — until rescue_seconds pass.
func (d *DB) waitUp(ctx context.Context) {
	for i := 0; ; i++ {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := d.pool.Ping(pctx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return
		}
		if i == 0 {
			d.log.Warn("ladder: waiting for the database", "event", "error", "reason", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(500 * time.Millisecond):
		}
	}
}
