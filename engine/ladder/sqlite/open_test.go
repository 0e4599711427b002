package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// TestOpenRefuses: a file that is not a database, one written by a newer
// program, and a folder are refused with an error naming the path, and a
// file is left byte for byte as it was.
func TestOpenRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	newer := filepath.Join(dir, "newer.db")
	s, err := Open(ctx, newer)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.Exec(`INSERT INTO schema_migrations (version, name) VALUES (?, 'from the future')`, Latest()+1); err != nil {
		t.Fatal(err)
	}
	s.Close()
	files := map[string][]byte{
		"text.db":   []byte("players:\n  - hunter\n"),
		"zeros.db":  make([]byte, 8192),
		"header.db": append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0xff}, 4000)...),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	newerBytes, _ := os.ReadFile(newer)
	files["newer.db"] = newerBytes
	for name, before := range files {
		path := filepath.Join(dir, name)
		_, err := Open(ctx, path)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Path != path || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line *FileError naming the file", name, err)
		}
		if name == "newer.db" && !errors.Is(err, ErrSchema) {
			t.Errorf("%s: %v, want ErrSchema", name, err)
		}
		after, _ := os.ReadFile(path)
		if !bytes.Equal(before, after) {
			t.Errorf("%s was changed by the refused Open", name)
		}
		for _, extra := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(path + extra); err == nil && name != "newer.db" {
				t.Errorf("%s: Open left %s behind", name, extra)
			}
		}
		t.Logf("%s: %v", name, err)
	}
	if _, err := Open(ctx, dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("a folder: %v", err)
	}
}

// TestMigrateFromEverySchema: a file at each earlier schema version (with
// a row in it) opens, reaches the latest and keeps its row.
func TestMigrateFromEverySchema(t *testing.T) {
	ctx := context.Background()
	all, err := steps()
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < len(all); k++ {
		t.Run(fmt.Sprintf("from %d", k), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "l.db")
			db, err := sql.Open("sqlite", dsn(path, false))
			if err != nil {
				t.Fatal(err)
			}
			if k > 0 {
				if err := migrate(ctx, db, all[:k]); err != nil {
					t.Fatal(err)
				}
			} else if _, err := db.Exec(`PRAGMA user_version = 0`); err != nil { // an empty file
				t.Fatal(err)
			}
			if k > 0 {
				if _, err := db.Exec(`INSERT INTO meta (key, value) VALUES ('kept', 'yes')`); err != nil {
					t.Fatal(err)
				}
			}
			db.Close()
			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			v, err := version(ctx, s.reader)
			if err != nil || v != Latest() {
				t.Errorf("schema %d, want %d (%v)", v, Latest(), err)
			}
			if k > 0 {
				s.View(ctx, func(tx ladder.Tx) error {
					if got, _ := tx.Meta("kept"); got != "yes" {
						t.Errorf("the row written at schema %d is gone", k)
					}
					return nil
				})
			}
		})
	}
}

// TestReopen: what one Open wrote, the next reads.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "l.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p := ladder.Player{Name: "kept"}
	s.Update(ctx, func(tx ladder.Tx) error { return tx.SavePlayer(&p) })
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(ctx, func(tx ladder.Tx) error {
		if _, err := tx.PlayerByName("", "kept"); err != nil {
			t.Error(err)
		}
		return nil
	})
}

// TestOneWriter: transactions from many goroutines at once are
// serialised: every read-modify-write of the sequence counts.
func TestOneWriter(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "l.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
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
				s.View(ctx, func(tx ladder.Tx) error { _, err := tx.Meta("n"); return err })
			}
		}()
	}
	wg.Wait()
	s.View(ctx, func(tx ladder.Tx) error {
		if v, _ := tx.Meta("n"); v != "200" {
			t.Errorf("n = %s after 200 increments", v)
		}
		return nil
	})
}
