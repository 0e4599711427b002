// Package pgtest gives tests a PostgreSQL database of their own, on the
// server PGTEST_URL names (.ci/services starts one on loopback and sets
// it): without it a test skips, or fails when TOOLS_REQUIRED is set.
package pgtest

import (
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver "pgx"
)

// Server returns PGTEST_URL, or skips (fails under TOOLS_REQUIRED).
func Server(t testing.TB) string {
	t.Helper()
	url := os.Getenv("PGTEST_URL")
	if url == "" {
		if os.Getenv("TOOLS_REQUIRED") != "" {
			t.Fatal("PGTEST_URL is not set (TOOLS_REQUIRED is): start PostgreSQL with .ci/services")
		}
		t.Skip("PGTEST_URL is not set: run `. .ci/services` to start PostgreSQL on loopback")
	}
	return url
}

var dbs atomic.Int64

// FreshDB creates an empty database for one test, dropped when it ends,
// and returns its URL.
func FreshDB(t testing.TB) string {
	t.Helper()
	url := Server(t)
	admin, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("sb_test_%d_%d", os.Getpid(), dbs.Add(1))
	if _, err := admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if admin, err := sql.Open("pgx", url); err == nil {
			admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`)
			admin.Close()
		}
	})
	return WithDB(url, name)
}

// WithDB is url naming database name instead.
func WithDB(url, name string) string {
	i := strings.LastIndex(url, "/")
	rest := ""
	if q := strings.Index(url[i:], "?"); q >= 0 {
		rest = url[i+q:]
	}
	return url[:i+1] + name + rest
}
