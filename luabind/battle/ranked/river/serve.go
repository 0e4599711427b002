package river

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	rq "github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlstore"
	"github.com/squarebattle/squarebattle/luabind/battle/ranked"
)

// ServeOptions configure the server's side.
type ServeOptions struct {
	// Runner plays the battles only the server can (Available and Bot
	// set for remote bots) and settles: Replays is the arena's replay
	// folder, Finished told of every battle settled.
	Runner ranked.Options
	// Workers is how many of the hosts' battles the server plays itself
	// besides (0: none, the hosts play them); its own queue gets
	// max(Runner.Workers, 1).
	Workers int
	// ServerOnly says whether a battle must be played on the server.
	ServerOnly func(ladder.Battle) bool
	// Poll is how often the server settles and hands out again the
	// battles that lost their job, without being asked; 0: 2 s.
	Poll        time.Duration
	RescueAfter time.Duration
}

// Serve plans and rates the ladder, hands its battles out and plays the
// server's own, until ctx ends.
func (d *DB) Serve(ctx context.Context, o ServeOptions) error {
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	own := max(o.Runner.Workers, 1)
	o.Runner.Workers = 1
	r, err := ranked.New(o.Runner)
	if err != nil {
		return err
	}
	s := &server{d: d, o: o, r: r}
	workers := rq.NewWorkers()
	rq.AddWorker(workers, &playWorker{d: d, l: o.Runner.Ladder, r: r, replays: o.Runner.Replays, settle: s.settle})
	rq.AddWorker(workers, &settleWorker{settle: s.settle})
	c, err := rq.NewClient(riverpgxv5.New(d.pool), d.clientConfig(map[string]int{QueueServer: own, QueueHosts: o.Workers}, workers, o.RescueAfter))
	if err != nil {
		return err
	}
	s.rehand(ctx)
	s.settle(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(o.Poll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.rehand(ctx)
				s.settle(ctx)
			}
		}
	}()
	err = run(ctx, c)
	wg.Wait()
	return err
}

// server is the server's side at work.
type server struct {
	d  *DB
	o  ServeOptions
	r  *ranked.Runner
	mu sync.Mutex // one settle at a time: the replays move in order
}

// queueOf is the queue battle b goes to.
func (s *server) queueOf(b ladder.Battle) string {
	if s.o.ServerOnly != nil && s.o.ServerOnly(b) {
		return QueueServer
	}
	return QueueHosts
}

// settle rates what can be rated, plans the next battles with their jobs
// in the same transaction, moves the replays of the battles rated into
// the replay folder and tells of them.
func (s *server) settle(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.o.Runner.Ladder
	res, err := l.Settle(ctx, s.o.Runner.Available, func(tx ladder.Tx, b ladder.Battle) error {
		stx, ok := sqlstore.SQLTx(tx)
		if !ok {
			return errors.New("river: the ladder is not in PostgreSQL")
		}
		_, err := s.d.insert.InsertTx(ctx, stx, PlayArgs{Battle: int64(b.ID)}, playOpts(s.queueOf(b)))
		return err
	})
	if err != nil {
		if ctx.Err() == nil {
			s.d.log.Error("ladder: settling battles", "event", "error", "reason", err.Error())
		}
		return
	}
	if err := s.collect(ctx); err != nil && ctx.Err() == nil {
		s.d.log.Error("ladder: collecting the hosts' replays", "event", "error", "reason", err.Error())
	}
	s.r.Settled(ctx, res.Done)
}

// rehand gives every battle waiting to be played a job again, should it
// have lost it (a database restored, jobs given up while it was away);
// the queue keeps one job per battle.
func (s *server) rehand(ctx context.Context) {
	pending, err := s.o.Runner.Ladder.Pending(ctx)
	if err != nil || len(pending) == 0 {
		return
	}
	params := make([]rq.InsertManyParams, len(pending))
	for i, b := range pending {
		params[i] = rq.InsertManyParams{Args: PlayArgs{Battle: int64(b.ID)}, InsertOpts: playOpts(s.queueOf(b))}
	}
	if _, err := s.d.insert.InsertMany(ctx, params); err != nil && ctx.Err() == nil {
		s.d.log.Warn("ladder: handing battles out again", "event", "error", "reason", err.Error())
	}
}

// collect moves the replays hosts uploaded for battles settled into the
// replay folder, each file written whole before its row is deleted.
func (s *server) collect(ctx context.Context) error {
	db := s.d.Store.DB()
	for {
		rows, err := db.QueryContext(ctx, `SELECT r.battle FROM ladder_replays r JOIN battles b ON b.id = r.battle
			WHERE b.state IN ('done', 'failed') ORDER BY r.battle LIMIT 64`)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(ids) == 0 {
			return err
		}
		for _, id := range ids {
			var data []byte
			if err := db.QueryRowContext(ctx, `SELECT data FROM ladder_replays WHERE battle = $1`, id).Scan(&data); err != nil {
				return err
			}
			if err := writeFile(s.o.Runner.Replays.Path(ladder.BattleID(id)), data); err != nil {
				return err
			}
			if _, err := db.ExecContext(ctx, `DELETE FROM ladder_replays WHERE battle = $1`, id); err != nil {
				return err
			}
		}
	}
}

// writeFile writes a file atomically: whole or not at all.
func writeFile(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), ".replay-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	return nil
}
