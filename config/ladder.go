package config

import (
	"maps"
	"slices"
	"strings"
)

// ServeLadder configures the arena's ladder (serve.ladder): ranked battles
// played in the background between every starting player of each game on
// it, rated with OpenSkill (engine/ladder).
type ServeLadder struct {
	// Enabled plays ladder battles; false leaves the ladder as it is
	// (its table can still be read).
	Enabled bool `mapstructure:"enabled" yaml:"enabled" json:"enabled"`
	// Games lists the games on the ladder, separated by commas:
	// "squarebattle" and rule mod folder names. "" means SquareBattle and
	// every rule mod whose game.yaml has a ladder section.
	Games string `mapstructure:"games" yaml:"games" json:"games"`
	// Workers is how many ladder battles play at once; 0 means one per
	// core but one (at least one), leaving a core to the hall.
	Workers int `mapstructure:"workers" yaml:"workers" json:"workers"`
	// Teams, Size and Rounds are SquareBattle's ladder battles: teams per
	// battle, arena side, round limit.
	Teams  int `mapstructure:"teams" yaml:"teams" json:"teams"`
	Size   int `mapstructure:"size" yaml:"size" json:"size"`
	Rounds int `mapstructure:"rounds" yaml:"rounds" json:"rounds"`
	// BattlesKept is how many of each player's most recent battles keep
	// their replays whatever the disk budget.
	BattlesKept int `mapstructure:"battles_kept" yaml:"battles_kept" json:"battles_kept"`
	// DiskMiB is the disk budget of ladder replays: past it the oldest are
	// deleted (their results stay), except the BattlesKept of each player.
	DiskMiB int `mapstructure:"disk_mib" yaml:"disk_mib" json:"disk_mib"`
	// DB is the ladder's database: "" for ladder.db (SQLite) in the data
	// dir, a file name for SQLite elsewhere, a postgres:// URL for
	// PostgreSQL, whose ladder worker hosts (squarebattle ladder work)
	// share the battles (docs/ladder.md).
	DB string `mapstructure:"db" yaml:"db" json:"db"`
	// Seed makes the ladder reproducible: battle n is drawn from (Seed, n).
	// 0: a seed drawn once and kept in the ladder's database.
	Seed int64 `mapstructure:"seed" yaml:"seed" json:"seed"`
	// Ahead is how many battles are planned and not yet rated at once;
	// battle n+Ahead is planned from the table right after battle n is
	// rated, so the same Seed and Ahead give the same ladder whatever
	// plays it. 0: 8.
	Ahead int `mapstructure:"ahead" yaml:"ahead" json:"ahead"`
	// RescueSeconds is how long a battle handed to a worker host may run
	// before it is handed to another (the host is taken for dead); on
	// PostgreSQL only. 0: 300.
	RescueSeconds int `mapstructure:"rescue_seconds" yaml:"rescue_seconds" json:"rescue_seconds"`
}

// IsPostgres says whether DB names a PostgreSQL database.
func (l ServeLadder) IsPostgres() bool {
	return strings.HasPrefix(l.DB, "postgres://") || strings.HasPrefix(l.DB, "postgresql://")
}

// GameLadder is a rule mod's ladder section, in its game.yaml: teams per
// battle, board side (0: the game's own size) and round limit (0: the
// game's rules.rounds). A game is on the ladder when Teams is set.
type GameLadder struct {
	Teams  int `mapstructure:"teams" yaml:"teams" json:"teams"`
	Size   int `mapstructure:"size" yaml:"size" json:"size"`
	Rounds int `mapstructure:"rounds" yaml:"rounds" json:"rounds"`
}

// On says whether the game's ladder section puts it on the ladder.
func (g GameLadder) On() bool { return g.Teams > 0 }

// GameNames splits Games into names ("" for none listed).
func (l ServeLadder) GameNames() []string {
	var out []string
	for _, g := range strings.Split(l.Games, ",") {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// gameOnly says whether key may only be set in a game's game.yaml.
func gameOnly(key string) bool { return strings.HasPrefix(key, "ladder.") }

// notGameOnly refuses, and takes out of vals, the keys of a layer other
// than a game's game.yaml that only a game.yaml may set: a user's file
// saying ladder.teams would put every rule mod on the ladder.
func notGameOnly(vals map[string]sourced) []error {
	var errs []error
	for _, key := range slices.Sorted(maps.Keys(vals)) {
		if gameOnly(key) {
			sv := vals[key]
			errs = append(errs, &FieldError{Key: key, Value: sv.value, Source: sv.source, Line: sv.line,
				Reason: "belongs in a rule mod's game.yaml (SquareBattle's ladder is serve.ladder)"})
			delete(vals, key)
		}
	}
	return errs
}
