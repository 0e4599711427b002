-- The ladder's first schema. Every table has a PostgreSQL twin in
-- engine/ladder/postgres: integers are 64-bit, reals are IEEE doubles
-- (ratings round-trip bit for bit), times are Unix nanoseconds, a
-- battle's seed is its uint64 bits stored as a signed 64-bit integer.

CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);

CREATE TABLE sequence (
	id    INTEGER PRIMARY KEY CHECK (id = 1),
	value BIGINT NOT NULL
);
INSERT INTO sequence (id, value) VALUES (1, 0);

CREATE TABLE players (
	id            INTEGER PRIMARY KEY,
	game          TEXT NOT NULL,
	name          TEXT NOT NULL,
	owner         TEXT NOT NULL,
	display       TEXT NOT NULL,
	version       BIGINT NOT NULL,
	mu            DOUBLE PRECISION NOT NULL,
	sigma         DOUBLE PRECISION NOT NULL,
	battles       INTEGER NOT NULL,
	wins          INTEGER NOT NULL,
	since_version INTEGER NOT NULL,
	last_battle   BIGINT NOT NULL,
	recent        BIGINT NOT NULL,
	recent_n      INTEGER NOT NULL,
	problem       TEXT NOT NULL,
	retired       BOOLEAN NOT NULL,
	UNIQUE (game, name)
);

CREATE TABLE versions (
	id      INTEGER PRIMARY KEY,
	player  BIGINT NOT NULL REFERENCES players (id),
	hash    TEXT NOT NULL,
	created BIGINT NOT NULL,
	seq     BIGINT NOT NULL
);
CREATE INDEX versions_player ON versions (player, id);

CREATE TABLE sources (
	hash   TEXT PRIMARY KEY,
	source BLOB NOT NULL
);

CREATE TABLE battles (
	id       INTEGER PRIMARY KEY,
	game     TEXT NOT NULL,
	seed     BIGINT NOT NULL,
	config   TEXT NOT NULL,
	state    TEXT NOT NULL,
	tries    INTEGER NOT NULL,
	created  BIGINT NOT NULL,
	started  BIGINT NOT NULL,
	finished BIGINT NOT NULL,
	seq      BIGINT NOT NULL,
	rounds   INTEGER NOT NULL,
	replay   TEXT NOT NULL,
	error    TEXT NOT NULL
);
CREATE INDEX battles_state ON battles (state, id);
CREATE INDEX battles_seq ON battles (game, seq);

CREATE TABLE seats (
	battle       BIGINT NOT NULL REFERENCES battles (id),
	slot         INTEGER NOT NULL,
	player       BIGINT NOT NULL REFERENCES players (id),
	version      BIGINT NOT NULL,
	hash         TEXT NOT NULL,
	place        INTEGER NOT NULL,
	result       TEXT NOT NULL,
	before_mu    DOUBLE PRECISION NOT NULL,
	before_sigma DOUBLE PRECISION NOT NULL,
	after_mu     DOUBLE PRECISION NOT NULL,
	after_sigma  DOUBLE PRECISION NOT NULL,
	rated        BOOLEAN NOT NULL,
	PRIMARY KEY (battle, slot)
);
CREATE INDEX seats_player ON seats (player, battle);

CREATE TABLE rating_changes (
	id           INTEGER PRIMARY KEY,
	player       BIGINT NOT NULL REFERENCES players (id),
	kind         TEXT NOT NULL,
	battle       BIGINT NOT NULL,
	version      BIGINT NOT NULL,
	seq          BIGINT NOT NULL,
	at           BIGINT NOT NULL,
	before_mu    DOUBLE PRECISION NOT NULL,
	before_sigma DOUBLE PRECISION NOT NULL,
	after_mu     DOUBLE PRECISION NOT NULL,
	after_sigma  DOUBLE PRECISION NOT NULL
);
CREATE INDEX rating_changes_player ON rating_changes (player, seq);
