// Package sqlstore is the ladder's Store over database/sql, shared by the
// drivers that keep it in a real database (engine/ladder/sqlite,
// engine/ladder/postgres). The statements are written once, in the SQL the
// two databases share: $n parameters (SQLite numbers them in order of
// first use, as PostgreSQL does), INSERT … RETURNING, ON CONFLICT. A driver
// opens its database, applies its migrations and says how a write
// transaction begins; everything else is here.
package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/squarebattle/squarebattle/engine/ladder"
)

// txn is one transaction; every method maps to a statement or two.
type txn struct {
	ctx   context.Context
	tx    *sql.Tx
	write bool
}

var errReadOnly = errors.New("ladder: write in a read-only transaction")

// insert runs an INSERT … RETURNING id and stores the id in *id.
func (t *txn) insert(id any, q string, args ...any) error {
	if !t.write {
		return errReadOnly
	}
	var n int64
	if err := t.tx.QueryRowContext(t.ctx, q, args...).Scan(&n); err != nil {
		return err
	}
	switch p := id.(type) {
	case *ladder.PlayerID:
		*p = ladder.PlayerID(n)
	case *ladder.VersionID:
		*p = ladder.VersionID(n)
	case *ladder.BattleID:
		*p = ladder.BattleID(n)
	}
	return nil
}

func (t *txn) exec(q string, args ...any) (sql.Result, error) {
	if !t.write {
		return nil, errReadOnly
	}
	return t.tx.ExecContext(t.ctx, q, args...)
}

// nanos and fromNanos store times as Unix nanoseconds; the zero time is 0.
func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func notFound(err error, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, ladder.ErrNotFound)
	}
	return err
}

func (t *txn) NextSeq() (int64, error) {
	if _, err := t.exec(`UPDATE sequence SET value = value + 1 WHERE id = 1`); err != nil {
		return 0, err
	}
	var v int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT value FROM sequence WHERE id = 1`).Scan(&v)
	return v, err
}

func (t *txn) LastSeq() (int64, error) {
	var v int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT value FROM sequence WHERE id = 1`).Scan(&v)
	return v, err
}

const playerCols = `id, game, name, owner, display, version, mu, sigma, battles, wins, since_version, last_battle, recent, recent_n, problem, retired, failed, blamed`

func scanPlayer(row interface{ Scan(...any) error }) (ladder.Player, error) {
	var p ladder.Player
	var last, recent int64
	err := row.Scan(&p.ID, &p.Game, &p.Name, &p.Owner, &p.Display, &p.Version, &p.Rating.Mu, &p.Rating.Sigma,
		&p.Battles, &p.Wins, &p.SinceVersion, &last, &recent, &p.RecentN, &p.Problem, &p.Retired, &p.Failed, &p.Blamed)
	p.LastBattle, p.Recent = fromNanos(last), uint32(recent)
	return p, err
}

func (t *txn) Player(id ladder.PlayerID) (ladder.Player, error) {
	p, err := scanPlayer(t.tx.QueryRowContext(t.ctx, `SELECT `+playerCols+` FROM players WHERE id = $1`, id))
	return p, notFound(err, fmt.Sprintf("player %d", id))
}

func (t *txn) PlayerByName(game, name string) (ladder.Player, error) {
	p, err := scanPlayer(t.tx.QueryRowContext(t.ctx, `SELECT `+playerCols+` FROM players WHERE game = $1 AND name = $2`, game, name))
	return p, notFound(err, fmt.Sprintf("player %q of game %q", name, game))
}

func (t *txn) Players(game string) ([]ladder.Player, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+playerCols+` FROM players WHERE game = $1 ORDER BY id`, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ladder.Player
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (t *txn) SavePlayer(p *ladder.Player) error {
	// A name taken is found first, so that no statement fails: a failed
	// statement ends a PostgreSQL transaction, and the caller may go on.
	// Writers hold the ladder's one lock, so nobody takes it meanwhile.
	var other int64
	err := t.tx.QueryRowContext(t.ctx, `SELECT id FROM players WHERE game = $1 AND name = $2`, p.Game, p.Name).Scan(&other)
	switch {
	case err == nil && ladder.PlayerID(other) != p.ID:
		return fmt.Errorf("ladder: game %q already has a player %q", p.Game, p.Name)
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	}
	args := []any{p.Game, p.Name, p.Owner, p.Display, p.Version, p.Rating.Mu, p.Rating.Sigma, p.Battles, p.Wins,
		p.SinceVersion, nanos(p.LastBattle), int64(p.Recent), p.RecentN, p.Problem, p.Retired, p.Failed, p.Blamed}
	if p.ID == 0 {
		err := t.insert(&p.ID, `INSERT INTO players (game, name, owner, display, version, mu, sigma, battles, wins, since_version, last_battle, recent, recent_n, problem, retired, failed, blamed)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id`, args...)
		return dup(err, p)
	}
	res, err := t.exec(`UPDATE players SET game = $1, name = $2, owner = $3, display = $4, version = $5, mu = $6, sigma = $7, battles = $8, wins = $9,
		since_version = $10, last_battle = $11, recent = $12, recent_n = $13, problem = $14, retired = $15, failed = $16, blamed = $17 WHERE id = $18`, append(args, p.ID)...)
	if err != nil {
		return dup(err, p)
	}
	return mustHit(res, fmt.Sprintf("player %d", p.ID))
}

func dup(err error, p *ladder.Player) error {
	if err == nil {
		return nil
	}
	if msg := err.Error(); strings.Contains(msg, "UNIQUE") || strings.Contains(msg, "unique") || strings.Contains(msg, "23505") {
		return fmt.Errorf("ladder: game %q already has a player %q", p.Game, p.Name)
	}
	return err
}

func mustHit(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		err = fmt.Errorf("%s: %w", what, ladder.ErrNotFound)
	}
	return err
}

func (t *txn) SaveVersion(v *ladder.Version) error {
	var n int
	if err := t.tx.QueryRowContext(t.ctx, `SELECT count(*) FROM players WHERE id = $1`, v.Player).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("version of player %d: %w", v.Player, ladder.ErrNotFound)
	}
	return t.insert(&v.ID, `INSERT INTO versions (player, hash, created, seq) VALUES ($1, $2, $3, $4) RETURNING id`, v.Player, v.Hash, nanos(v.Created), v.Seq)
}

func (t *txn) Versions(p ladder.PlayerID) ([]ladder.Version, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id, player, hash, created, seq FROM versions WHERE player = $1 ORDER BY id`, p)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ladder.Version
	for rows.Next() {
		var v ladder.Version
		var created int64
		if err := rows.Scan(&v.ID, &v.Player, &v.Hash, &created, &v.Seq); err != nil {
			return nil, err
		}
		v.Created = fromNanos(created)
		out = append(out, v)
	}
	return out, rows.Err()
}

func (t *txn) SaveSource(hash string, src []byte) error {
	_, err := t.exec(`INSERT INTO sources (hash, source) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, hash, src)
	return err
}

func (t *txn) Source(hash string) ([]byte, error) {
	var src []byte
	err := t.tx.QueryRowContext(t.ctx, `SELECT source FROM sources WHERE hash = $1`, hash).Scan(&src)
	return src, notFound(err, "source "+hash)
}

func (t *txn) SaveBattle(b *ladder.Battle) error {
	args := []any{b.Game, int64(b.Seed), b.Config, string(b.State), b.Tries, nanos(b.Created), nanos(b.Started), nanos(b.Finished),
		b.Seq, b.Rounds, b.Replay, b.Error}
	if b.ID == 0 {
		if err := t.insert(&b.ID, `INSERT INTO battles (game, seed, config, state, tries, created, started, finished, seq, rounds, replay, error)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`, args...); err != nil {
			return err
		}
	} else {
		res, err := t.exec(`UPDATE battles SET game = $1, seed = $2, config = $3, state = $4, tries = $5, created = $6, started = $7, finished = $8,
			seq = $9, rounds = $10, replay = $11, error = $12 WHERE id = $13`, append(args, b.ID)...)
		if err != nil {
			return err
		}
		if err := mustHit(res, fmt.Sprintf("battle %d", b.ID)); err != nil {
			return err
		}
		if _, err := t.exec(`DELETE FROM seats WHERE battle = $1`, b.ID); err != nil {
			return err
		}
	}
	for i, s := range b.Seats {
		result, err := json.Marshal(s.Result)
		if err != nil {
			return err
		}
		if _, err := t.exec(`INSERT INTO seats (battle, slot, player, version, hash, place, result, before_mu, before_sigma, after_mu, after_sigma, rated, blamed)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, b.ID, i, s.Player, s.Version, s.Hash, s.Place, string(result),
			s.Before.Mu, s.Before.Sigma, s.After.Mu, s.After.Sigma, s.Rated, s.Blamed); err != nil {
			return err
		}
	}
	return nil
}

const battleCols = `id, game, seed, config, state, tries, created, started, finished, seq, rounds, replay, error`

// prefixed qualifies each column of a comma-separated list: "b.id, b.game".
func prefixed(prefix, cols string) string {
	return prefix + strings.ReplaceAll(cols, ", ", ", "+prefix)
}

func scanBattle(row interface{ Scan(...any) error }) (ladder.Battle, error) {
	var b ladder.Battle
	var seed, created, started, finished int64
	var state string
	err := row.Scan(&b.ID, &b.Game, &seed, &b.Config, &state, &b.Tries, &created, &started, &finished, &b.Seq, &b.Rounds, &b.Replay, &b.Error)
	b.Seed, b.State = uint64(seed), ladder.State(state)
	b.Created, b.Started, b.Finished = fromNanos(created), fromNanos(started), fromNanos(finished)
	return b, err
}

// seats fills in the seats of the battles given.
func (t *txn) seats(bs []ladder.Battle) error {
	for i := range bs {
		rows, err := t.tx.QueryContext(t.ctx, `SELECT player, version, hash, place, result, before_mu, before_sigma, after_mu, after_sigma, rated, blamed
			FROM seats WHERE battle = $1 ORDER BY slot`, bs[i].ID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var s ladder.Seat
			var result string
			if err := rows.Scan(&s.Player, &s.Version, &s.Hash, &s.Place, &result, &s.Before.Mu, &s.Before.Sigma, &s.After.Mu, &s.After.Sigma, &s.Rated, &s.Blamed); err != nil {
				rows.Close()
				return err
			}
			if err := json.Unmarshal([]byte(result), &s.Result); err != nil {
				rows.Close()
				return fmt.Errorf("battle %d: seat result: %w", bs[i].ID, err)
			}
			bs[i].Seats = append(bs[i].Seats, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) Battle(id ladder.BattleID) (ladder.Battle, error) {
	b, err := scanBattle(t.tx.QueryRowContext(t.ctx, `SELECT `+battleCols+` FROM battles WHERE id = $1`, id))
	if err != nil {
		return b, notFound(err, fmt.Sprintf("battle %d", id))
	}
	bs := []ladder.Battle{b}
	err = t.seats(bs)
	return bs[0], err
}

func (t *txn) Battles(q ladder.BattleQuery) ([]ladder.Battle, error) {
	var where []string
	var args []any
	// SQLite numbers $n parameters in the order they first appear in the
	// text: each condition takes its argument as it is written.
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	query := `SELECT ` + battleCols + ` FROM battles`
	col := func(c string) string { return c }
	order := " ORDER BY id DESC"
	if q.BySeq {
		order = " ORDER BY seq"
	}
	if q.Player != 0 {
		// Driven by the player's seats (seats_player: player, battle),
		// newest first, so that a player's last n battles read about n
		// battles, not every battle the player ever sat in (the
		// replays' pruning asks it of every player after each battle;
		// a player's page of its own). The slot test keeps one row of a
		// player seated twice.
		query = `SELECT ` + prefixed("b.", battleCols) + ` FROM seats s JOIN battles b ON b.id = s.battle`
		where = append(where, "s.player = "+arg(q.Player),
			"s.slot = (SELECT min(slot) FROM seats s2 WHERE s2.battle = s.battle AND s2.player = s.player)")
		col = func(c string) string { return "b." + c }
		order = " ORDER BY s.battle DESC"
		if q.BySeq {
			order = " ORDER BY b.seq"
		}
	}
	if q.Game != nil {
		where = append(where, col("game")+" = "+arg(*q.Game))
	}
	if q.BySeq {
		where = append(where, col("state")+" = 'done'")
	}
	if len(q.States) > 0 {
		var marks []string
		for _, s := range q.States {
			marks = append(marks, arg(string(s)))
		}
		where = append(where, col("state")+" IN ("+strings.Join(marks, ", ")+")")
	}
	if q.After != 0 {
		where = append(where, col("id")+" > "+arg(q.After))
	}
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += order
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	rows, err := t.tx.QueryContext(t.ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []ladder.Battle
	for rows.Next() {
		b, err := scanBattle(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, t.seats(out)
}

func (t *txn) AddRatingChange(c ladder.RatingChange) error {
	_, err := t.exec(`INSERT INTO rating_changes (player, kind, battle, version, seq, at, before_mu, before_sigma, after_mu, after_sigma)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, c.Player, string(c.Kind), c.Battle, c.Version, c.Seq, nanos(c.At),
		c.Before.Mu, c.Before.Sigma, c.After.Mu, c.After.Sigma)
	return err
}

const changeCols = `player, kind, battle, version, seq, at, before_mu, before_sigma, after_mu, after_sigma`

func scanChange(row interface{ Scan(...any) error }) (ladder.RatingChange, error) {
	var c ladder.RatingChange
	var kind string
	var at int64
	err := row.Scan(&c.Player, &kind, &c.Battle, &c.Version, &c.Seq, &at, &c.Before.Mu, &c.Before.Sigma, &c.After.Mu, &c.After.Sigma)
	c.Kind, c.At = ladder.ChangeKind(kind), fromNanos(at)
	return c, err
}

func (t *txn) RatingChanges(p ladder.PlayerID, limit int) ([]ladder.RatingChange, error) {
	query := `SELECT ` + changeCols + ` FROM rating_changes WHERE player = $1 ORDER BY seq DESC, id DESC`
	if limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := t.tx.QueryContext(t.ctx, query, p)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ladder.RatingChange
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (t *txn) RatingAt(p ladder.PlayerID, seq int64) (ladder.RatingChange, error) {
	c, err := scanChange(t.tx.QueryRowContext(t.ctx, `SELECT `+changeCols+` FROM rating_changes
		WHERE player = $1 AND seq <= $2 ORDER BY seq DESC, id DESC LIMIT 1`, p, seq))
	return c, notFound(err, fmt.Sprintf("rating of player %d at %d", p, seq))
}

func (t *txn) DeleteRatingChanges(game string, kinds ...ladder.ChangeKind) error {
	if len(kinds) == 0 {
		return nil
	}
	args := []any{game}
	var marks []string
	for _, k := range kinds {
		args = append(args, string(k))
		marks = append(marks, fmt.Sprintf("$%d", len(args)))
	}
	_, err := t.exec(`DELETE FROM rating_changes WHERE player IN (SELECT id FROM players WHERE game = $1) AND kind IN (`+strings.Join(marks, ", ")+`)`, args...)
	return err
}

func (t *txn) Meta(key string) (string, error) {
	var v string
	err := t.tx.QueryRowContext(t.ctx, `SELECT value FROM meta WHERE key = $1`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (t *txn) SetMeta(key, value string) error {
	_, err := t.exec(`INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// Update runs fn in one write transaction of db. begin, when not nil, runs
// first in the transaction (PostgreSQL takes the ladder's lock there; SQLite
// begins IMMEDIATE instead).
func Update(ctx context.Context, db *sql.DB, begin func(context.Context, *sql.Tx) error, fn func(ladder.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if begin != nil {
		if err := begin(ctx, tx); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := fn(&txn{ctx: ctx, tx: tx, write: true}); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// View runs fn in a read-only transaction of db at the isolation level
// given (one snapshot).
func View(ctx context.Context, db *sql.DB, level sql.IsolationLevel, fn func(ladder.Tx) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: level})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(&txn{ctx: ctx, tx: tx})
}

// SQLTx is the database/sql transaction under tx, when tx is one of this
// package's: a driver's caller adds its own statements to the ladder's
// transaction (a job queue inserting a battle's job with the battle).
func SQLTx(tx ladder.Tx) (*sql.Tx, bool) {
	t, ok := tx.(*txn)
	if !ok {
		return nil, false
	}
	return t.tx, true
}
