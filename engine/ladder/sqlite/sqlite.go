// Package sqlite keeps the ladder in a SQLite file, through
// modernc.org/sqlite: SQLite translated to Go, so the program still builds
// without cgo and cross-compiles to every platform it supports.
//
// The file is opened in WAL mode: readers (leaderboards, pages) never wait
// for the writer and the writer never waits for them. There is one writer:
// every Update runs on a single connection in a BEGIN IMMEDIATE
// transaction, serialised by SQLite itself, so two battles are never rated
// from the same stale ratings.
//
// The schema lives in migrations/, embedded and applied forward on Open,
// each in its own transaction, recorded in schema_migrations. A file this
// program cannot read, or whose schema is newer than it knows, is refused
// before anything is written to it.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/sqlstore"
	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

//go:embed migrations/*.sql
var migrations embed.FS

// ErrSchema is wrapped when a file's schema is newer than this program's.
var ErrSchema = errors.New("the database was written by a newer squarebattle")

// FileError says which file could not be used, and why.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Store is the ladder in one SQLite file.
type Store struct {
	path          string
	write, reader *sql.DB
}

// steps lists the embedded migrations in order.
func steps() ([]sqlstore.Migration, error) { return sqlstore.Migrations(migrations, "migrations") }

// Latest is the schema version this program writes.
func Latest() int {
	s, _ := steps()
	return s[len(s)-1].Version
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens (creating it if need be) the ladder's file and brings its
// schema up to date. Errors are *FileError naming the file; a schema newer
// than Latest wraps ErrSchema. A file that exists is first read without
// writing: one that is not a SQLite database, or is newer, is left exactly
// as it was.
func Open(ctx context.Context, path string) (*Store, error) {
	fail := func(err error) (*Store, error) { return nil, &FileError{Path: path, Err: err} }
	all, err := steps()
	if err != nil {
		return fail(err)
	}
	if info, err := os.Stat(path); err == nil {
		if info.IsDir() {
			return fail(errors.New("is a folder, not a database file"))
		}
		if err := check(ctx, path, all); err != nil {
			return fail(err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fail(err)
	}
	w, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return fail(err)
	}
	w.SetMaxOpenConns(1) // the one writer
	if err := migrate(ctx, w, all); err != nil {
		w.Close()
		return fail(err)
	}
	r, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		w.Close()
		return fail(err)
	}
	r.SetMaxOpenConns(4)
	return &Store{path: path, write: w, reader: r}, nil
}

// check reads an existing file's schema version without writing to it.
func check(ctx context.Context, path string, all []sqlstore.Migration) error {
	db, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return err
	}
	defer db.Close()
	v, err := version(ctx, db)
	if err != nil {
		return unreadable(err)
	}
	if latest := all[len(all)-1].Version; v > latest {
		return fmt.Errorf("%w (schema %d; this program knows up to %d)", ErrSchema, v, latest)
	}
	return nil
}

// unreadable words a driver's error about a file that is not a database.
func unreadable(err error) error {
	if strings.Contains(err.Error(), "not a database") || strings.Contains(err.Error(), "malformed") {
		return errors.New("not a SQLite database the ladder can read (is it the right file?)")
	}
	return err
}

// version is the file's schema version: 0 for a new, empty file.
func version(ctx context.Context, db *sql.DB) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&n)
	if err != nil || n == 0 {
		return 0, err
	}
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// migrate applies the steps the file has not had, each in a transaction.
func migrate(ctx context.Context, db *sql.DB, all []sqlstore.Migration) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return unreadable(err)
	}
	have, err := version(ctx, db)
	if err != nil {
		return unreadable(err)
	}
	if latest := all[len(all)-1].Version; have > latest {
		return fmt.Errorf("%w (schema %d; this program knows up to %d)", ErrSchema, have, latest)
	}
	for _, m := range all {
		if m.Version <= have {
			continue
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name) VALUES (?, ?)`, m.Version, m.Name); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// Path is the file the store keeps.
func (s *Store) Path() string { return s.path }

// Close closes the file.
func (s *Store) Close() error {
	return errors.Join(s.reader.Close(), s.write.Close())
}

// Update runs fn in one write transaction.
func (s *Store) Update(ctx context.Context, fn func(ladder.Tx) error) error {
	return sqlstore.Update(ctx, s.write, nil, fn)
}

// View runs fn in a read transaction: one snapshot of the file.
func (s *Store) View(ctx context.Context, fn func(ladder.Tx) error) error {
	return sqlstore.View(ctx, s.reader, sql.LevelDefault, fn)
}
