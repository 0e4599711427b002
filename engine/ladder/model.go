package ladder

import (
	"time"

	"github.com/squarebattle/squarebattle/engine/openskill"
	"github.com/squarebattle/squarebattle/engine/tournament"
)

// PlayerID, VersionID and BattleID are the store's keys; 0 is "none yet".
type (
	PlayerID  int64
	VersionID int64
	BattleID  int64
)

// Player is one starting player on the ladder of one game: a shipped
// player, a user's upload or a connected bot. Its rating belongs to the
// player and carries over from version to version.
type Player struct {
	ID   PlayerID
	Game string // "" for SquareBattle, else the rule mod's folder name
	// Name is the player's id within its game ("hunter"); Owner the user
	// it belongs to, "" for a shipped player. Display is its display name.
	Name, Owner, Display string
	Version              VersionID // the version that plays now
	Rating               openskill.Rating
	// Battles and Wins count rated battles of every version; SinceVersion
	// those of the current version. Wins are first places, shared or not.
	Battles, Wins, SinceVersion int
	LastBattle                  time.Time // zero before the first
	// Recent holds whether each of the current version's last battles
	// (up to RecentWindow, newest in bit 0) ended with errors or
	// timeouts of the player's own; RecentN how many bits are valid.
	Recent  uint32
	RecentN int
	// Problem is the first problem of the battle that put the player on
	// probation, "file:line: message".
	Problem string
	// Failed counts the battles of the current version given up or
	// failed (rated for nobody) since its last rated battle, as Settle
	// passes them in plan order. Matchmaking seats first a player whose
	// last battles did not all fail, so a version whose battles always
	// fail cannot hold the first seat of every battle planned (its
	// SinceVersion never grows).
	Failed int
	// Blamed counts those of Failed that failed for this player's own
	// inputs (a version that cannot be set up: Seat.Blamed). A blamed
	// player sits out others' battles, as one on probation does, until a
	// battle of its plays or a new version comes.
	Blamed int
	// Retired players (deleted uploads, bots gone for good) keep their
	// history but play no more.
	Retired bool
}

// Ordinal is the number the leaderboard sorts by (μ − 3σ).
func (p Player) Ordinal() float64 { return p.Rating.Ordinal() }

// Version is one submitted source of a player.
type Version struct {
	ID      VersionID
	Player  PlayerID
	Hash    string // hex SHA-256 of the source
	Created time.Time
	Seq     int64 // the event number that made it current
}

// State is where a battle is in its life.
type State string

// The states of a battle.
const (
	Queued  State = "queued"  // planned, not yet handed to anyone
	Playing State = "playing" // handed out; on a restart it is played again
	Played  State = "played"  // played and its results kept (Record); rated in its turn (Settle)
	Done    State = "done"    // played and rated
	Failed  State = "failed"  // could not be played for its own reasons; rated for nobody
)

// Seat is one team of a battle.
type Seat struct {
	Player  PlayerID
	Version VersionID
	Hash    string // the version's source hash, so a plan is self-contained
	// Filled in when the battle is done:
	Place         int                   // 1 for the winner; equal places are ties
	Result        tournament.TeamResult // the team's statistics
	Before, After openskill.Rating      // the player's rating around the battle
	Rated         bool                  // false when the seat's version was no longer current
	// Blamed: the battle failed for this seat's inputs (FailSeat).
	Blamed bool
}

// Battle is one ranked battle.
type Battle struct {
	ID     BattleID
	Game   string
	Seed   uint64
	Config string // the battle's settings as the caller encoded them (JSON)
	State  State
	Seats  []Seat
	// Tries counts how often the battle was handed out: a battle the
	// server failed is played again, up to MaxTries.
	Tries            int
	Created, Started time.Time
	Finished         time.Time
	Seq              int64  // the event number of its result, when done
	Rounds           int    // rounds played
	Replay           string // the replay file's name in the replay store, "" when pruned
	Error            string // why a failed battle failed
}

// Why a rating changed.
type ChangeKind string

// The kinds of rating change.
const (
	ByBattle  ChangeKind = "battle"  // a rated battle
	ByVersion ChangeKind = "version" // a new version: σ back to the start
	ByReset   ChangeKind = "reset"   // the host reset the rating
)

// RatingChange is one player's rating moving: every event that moves a
// rating is one, numbered in the ladder's one sequence.
type RatingChange struct {
	Player        PlayerID
	Kind          ChangeKind
	Battle        BattleID  // for ByBattle
	Version       VersionID // for ByVersion
	Seq           int64
	At            time.Time
	Before, After openskill.Rating
}
