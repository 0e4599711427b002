package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
	"github.com/squarebattle/squarebattle/engine/ladder/laddertest"
	"github.com/squarebattle/squarebattle/engine/ladder/postgres/pgtest"
)

// freshDB is an empty database of the test's own (pgtest).
func freshDB(t *testing.T) string { return pgtest.FreshDB(t) }

// TestContract holds the PostgreSQL store to the contract every store
// keeps: the same tests as SQLite and the memory store, the same table.
func TestContract(t *testing.T) {
	laddertest.Run(t, func(t *testing.T) ladder.Store {
		s, err := Open(context.Background(), freshDB(t))
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestNewerSchema: a database migrated by a newer program is refused, and
// left as it was.
func TestNewerSchema(t *testing.T) {
	ctx := context.Background()
	url := freshDB(t)
	s, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')`, Latest()+1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = Open(ctx, url)
	if !errors.Is(err, ErrSchema) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
	again, _ := sql.Open("pgx", url)
	defer again.Close()
	if v, _ := version(ctx, again); v != Latest()+1 {
		t.Errorf("schema version changed to %d", v)
	}
}

// TestWritersAcrossConnections: two stores on one database (two
// processes) serialise their writes: every read-modify-write counts.
func TestWritersAcrossConnections(t *testing.T) {
	ctx := context.Background()
	url := freshDB(t)
	var stores []*Store
	for range 2 {
		s, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[i%2]
			for range 20 {
				err := s.Update(ctx, func(tx ladder.Tx) error {
					v, _ := tx.Meta("n")
					var n int
					fmt.Sscan(v, &n)
					return tx.SetMeta("n", fmt.Sprint(n+1))
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	stores[0].View(ctx, func(tx ladder.Tx) error {
		if v, _ := tx.Meta("n"); v != "120" {
			t.Errorf("n = %s after 120 increments from two stores", v)
		}
		return nil
	})
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://ladder:secret@127.0.0.1:5432/db": "postgres://ladder:***@127.0.0.1:5432/db",
		"postgres://ladder@127.0.0.1/db":             "postgres://ladder@127.0.0.1/db",
		"postgres:///db":                             "postgres:///db",
	} {
		if got := redact(in); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}
