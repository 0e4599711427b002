package bot

import (
	"encoding/json"
	"strconv"

	"github.com/squarebattle/squarebattle/engine"
)

// Protocol is the bot protocol every bot speaks, and the "protocol" of
// every hello. Later versions of protocol 1 may add fields, never remove
// or change one.
const Protocol = 1

// Protocol2 is protocol 2 (docs/bots.md, "Protocol 2"): SquareBattle's
// round messages say what changed since the bot's last one, in flat
// arrays, and its answers give orders in pairs. A bot chooses it in its
// ready when hello's "protocols" offers it (Handshake).
const Protocol2 = 2

// The kinds of round messages a battle sends (Hello.Kind).
const (
	// KindSquares: SquareBattle's round messages, for SquareBattle and
	// rule mods written with protocol = "squarebattle".
	KindSquares = "squares"
	// KindCalls: a rule mod's batches of calls.
	KindCalls = "calls"
)

// Time is the clock a bot plays under, in milliseconds; 0 is no limit.
type Time struct {
	InitMS  int64 `json:"init_ms"`
	RoundMS int64 `json:"round_ms"`
	BankMS  int64 `json:"bank_ms"`
}

// Hello is the engine's first message to a bot: everything about the
// battle that does not change from round to round.
type Hello struct {
	Type     string `json:"type"` // set to "hello" by Greet
	Protocol int    `json:"protocol"`
	// Protocols are the protocols the engine speaks in this battle; a bot
	// names the one it chooses in ready (none: 1).
	Protocols []int    `json:"protocols,omitempty"`
	Game      string   `json:"game"`
	Kind      string   `json:"kind"`
	Seed      uint64   `json:"seed"`
	Team      int      `json:"team"`
	Teams     int      `json:"teams"`
	Size      int      `json:"size"`
	Wrap      bool     `json:"wrap"`
	Rounds    int      `json:"rounds"`
	Players   []string `json:"players"`
	Class     string   `json:"class,omitempty"`
	Classes   []string `json:"classes"`
	// Constants are the rules' constants (SquareBattle) or the game's
	// options (a rule mod). encoding/json writes map keys sorted, so the
	// message is the same every time.
	Constants map[string]any `json:"constants"`
	Columns   []string       `json:"columns,omitempty"`
	Time      Time           `json:"time"`
}

// End is the engine's last message to a bot.
type End struct {
	Type   string `json:"type"` // set to "end" by Finish
	Round  int    `json:"round"`
	Winner int    `json:"winner"` // a team, or -1 for a draw
	Reason string `json:"reason"`
	// Stats (SquareBattle) or Values (a rule mod), per team.
	Stats  []Stats `json:"stats,omitempty"`
	Values [][]int `json:"values,omitempty"`
}

// Stats are one team's statistics as a bot reads them.
type Stats struct {
	Player     string `json:"player"`
	Squares    int    `json:"squares"`
	Births     int    `json:"births"`
	Kills      int    `json:"kills"`
	Deaths     int    `json:"deaths"`
	Collisions int    `json:"collisions"`
	Timeouts   int    `json:"timeouts"`
	Errors     int    `json:"errors"`
}

// StatsOf turns the engine's statistics into a bot's; players names the
// teams (a missing name is "").
func StatsOf(stats []engine.Stats, players []string) []Stats {
	out := make([]Stats, len(stats))
	for t, s := range stats {
		name := ""
		if t < len(players) {
			name = players[t]
		}
		out[t] = StatsFor(name, s)
	}
	return out
}

// StatsFor is one team's statistics under the player's name, as bots
// read them (and as run --json writes them).
func StatsFor(player string, s engine.Stats) Stats {
	return Stats{Player: player, Squares: s.Squares, Births: s.Births, Kills: s.Kills,
		Deaths: s.Deaths, Collisions: s.Collisions, Timeouts: s.Timeouts, Errors: s.Errors}
}

// directionNames are the names the protocol writes and reads, in view
// order (the index is the direction's number on the wire).
var directionNames = [8]string{"nw", "n", "ne", "e", "se", "s", "sw", "w"}

// appendString appends s as a JSON string. Text that is not UTF-8 comes
// out with U+FFFD in place of the bad bytes, as encoding/json writes it.
func appendString(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil { // a string always marshals
		return append(b, `""`...)
	}
	return append(b, q...)
}

// appendInt appends a JSON number.
func appendInt(b []byte, v int) []byte { return strconv.AppendInt(b, int64(v), 10) }
