// Package postgres keeps the ladder in PostgreSQL, through pgx (its
// database/sql driver), so that a server and ladder workers on several
// hosts share one ladder.
//
// The tables are engine/ladder/sqlite's, created by the migrations in
// migrations/ (embedded, applied forward on Open, each in its own
// transaction, recorded in schema_migrations); the statements are
// engine/ladder/sqlstore's, shared with SQLite. There is one writer at a
// time across every process: each Update first takes a transaction-level
// advisory lock, so no two battles are rated from the same stale ratings;
// readers take a REPEATABLE READ snapshot and never wait for it.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

// lockKey is the advisory lock every write transaction takes ("SBLADDER").
const lockKey = 0x53424c4144444552

// ErrSchema is wrapped when the database's schema is newer than this
// program's.
var ErrSchema = errors.New("the database was written by a newer squarebattle")

// Store is the ladder in a PostgreSQL database.
type Store struct {
	db *sql.DB
}

// steps lists the embedded migrations in order.
func steps() ([]sqlstore.Migration, error) { return sqlstore.Migrations(migrations, "migrations") }

// Latest is the schema version this program writes.
func Latest() int {
	s, _ := steps()
	return s[len(s)-1].Version
}

// Open connects to the database at url (postgres://…) and brings its
// schema up to date. A schema newer than Latest is refused before anything
// is written.
func Open(ctx context.Context, url string) (*Store, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", redact(url), err)
	}
	all, err := steps()
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := migrate(ctx, db, all); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", redact(url), err)
	}
	return &Store{db: db}, nil
}

// redact drops a password from a URL for messages.
func redact(url string) string {
	if at := strings.LastIndex(url, "@"); at > 0 {
		if scheme := strings.Index(url, "://"); scheme > 0 && scheme < at {
			user := url[scheme+3 : at]
			if name, _, ok := strings.Cut(user, ":"); ok {
				return url[:scheme+3] + name + ":***" + url[at:]
			}
		}
	}
	return url
}

// version is the schema version of the database: 0 when it has none.
func version(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var exists bool
	if err := q.QueryRowContext(ctx, `SELECT to_regclass('schema_migrations') IS NOT NULL`).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v)
	return int(v.Int64), err
}

// migrate applies the steps the database has not had, each in a
// transaction that holds the ladder's lock (two processes starting at
// once migrate one after the other).
func migrate(ctx context.Context, db *sql.DB, all []sqlstore.Migration) error {
	have, err := version(ctx, db)
	if err != nil {
		return err
	}
	latest := all[len(all)-1].Version
	if have > latest {
		return fmt.Errorf("%w (schema %d; this program knows up to %d)", ErrSchema, have, latest)
	}
	if have == latest {
		return nil
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return err
	}
	if have, err = version(ctx, tx); err != nil {
		return err
	}
	for _, m := range all {
		if m.Version <= have {
			continue
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// DB is the database the store runs on, for callers that keep tables of
// their own beside the ladder's (a job queue). Writers of the ladder's
// tables go through Update.
func (s *Store) DB() *sql.DB { return s.db }

// LockKey is the advisory lock every ladder write takes: a caller changing
// its own schema takes it too, so processes starting at once migrate one
// after the other.
const LockKey = lockKey

// Close closes the connections.
func (s *Store) Close() error { return s.db.Close() }

// Update runs fn in one write transaction, holding the ladder's lock.
func (s *Store) Update(ctx context.Context, fn func(ladder.Tx) error) error {
	return sqlstore.Update(ctx, s.db, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(lockKey))
		return err
	}, fn)
}

// View runs fn in a read-only REPEATABLE READ transaction.
func (s *Store) View(ctx context.Context, fn func(ladder.Tx) error) error {
	return sqlstore.View(ctx, s.db, sql.LevelRepeatableRead, fn)
}
