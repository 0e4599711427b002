package config

import (
	"strconv"
	"strings"

	"github.com/squarebattle/squarebattle/engine/suggest"
)

// EnvPrefix starts every environment variable Load reads. The rest of the
// name is the dotted key in upper case with dots turned into underscores:
// arena.size is SQUAREBATTLE_ARENA_SIZE.
const EnvPrefix = "SQUAREBATTLE_"

// FileName is the configuration file Load looks for in LoadOptions.Dir and
// LoadOptions.UserDir; altFileName is accepted too.
const (
	FileName    = "squarebattle.yaml"
	altFileName = "squarebattle.yml"
)

type kind int

const (
	kindInt kind = iota
	kindBool
	kindString
)

func (k kind) expect() string {
	switch k {
	case kindInt:
		return "must be an integer"
	case kindBool:
		return "must be true or false"
	default:
		return "must be a string"
	}
}

// keySpec describes one leaf of Config. Internally values travel as int64,
// bool or string.
type keySpec struct {
	name     string
	kind     kind
	bounded  bool
	min, max int64
	field    func(c *Config) any // pointer to the field: *int, *int64, *bool, *string
}

func (k *keySpec) env() string {
	return EnvPrefix + strings.ToUpper(strings.ReplaceAll(k.name, ".", "_"))
}

// get returns the field's value as int64, bool or string.
func (k *keySpec) get(c *Config) any {
	switch p := k.field(c).(type) {
	case *int:
		return int64(*p)
	case *int64:
		return *p
	case *bool:
		return *p
	case *string:
		return *p
	}
	panic("config: bad field type for " + k.name)
}

func (k *keySpec) int64Of(c *Config) int64 { return k.get(c).(int64) }

func intKey(name string, lo, hi int64, f func(c *Config) any) keySpec {
	return keySpec{name: name, kind: kindInt, bounded: true, min: lo, max: hi, field: f}
}

// keys lists every leaf key in the order of the Config struct.
var keys = []keySpec{
	{name: "scripts", kind: kindString, field: func(c *Config) any { return &c.Scripts }},
	{name: "seed", kind: kindInt, field: func(c *Config) any { return &c.Seed }},
	intKey("workers", 0, 4096, func(c *Config) any { return &c.Workers }),
	intKey("arena.size", 2, 2000, func(c *Config) any { return &c.Arena.Size }),
	{name: "arena.wrap", kind: kindBool, field: func(c *Config) any { return &c.Arena.Wrap }},
	intKey("rules.rounds", 1, 10_000_000, func(c *Config) any { return &c.Rules.Rounds }),
	intKey("rules.replicate_rounds", 0, 1_000_000, func(c *Config) any { return &c.Rules.ReplicateRounds }),
	intKey("rules.time_limit", 0, 86400*7, func(c *Config) any { return &c.Rules.TimeLimit }),
	intKey("limits.instructions", 100, 100_000_000, func(c *Config) any { return &c.Limits.Instructions }),
	intKey("limits.memory_mib", 1, 16384, func(c *Config) any { return &c.Limits.MemoryMiB }),
	intKey("limits.string_bytes", 256, 1<<30, func(c *Config) any { return &c.Limits.StringBytes }),
	intKey("limits.script_bytes", 1024, 64<<20, func(c *Config) any { return &c.Limits.ScriptBytes }),
	intKey("limits.call_depth", 16, 10000, func(c *Config) any { return &c.Limits.CallDepth }),
	intKey("limits.rules_instructions", 1000, 1_000_000_000, func(c *Config) any { return &c.Limits.RulesInstructions }),
	intKey("tui.speed", 0, 100000, func(c *Config) any { return &c.TUI.Speed }),
	intKey("tui.fps", 1, 240, func(c *Config) any { return &c.TUI.FPS }),
	intKey("tui.rewind", 0, 10_000_000, func(c *Config) any { return &c.TUI.Rewind }),
	{name: "tui.replays", kind: kindString, field: func(c *Config) any { return &c.TUI.Replays }},
	intKey("human.pace", 1, 60, func(c *Config) any { return &c.Human.Pace }),
	intKey("human.steer_pace", 1, 60, func(c *Config) any { return &c.Human.SteerPace }),
	intKey("human.countdown", 0, 60, func(c *Config) any { return &c.Human.Countdown }),
	intKey("human.idle", 0, 86400, func(c *Config) any { return &c.Human.Idle }),
	{name: "human.autopilot", kind: kindString, field: func(c *Config) any { return &c.Human.Autopilot }},
	{name: "isolation.mode", kind: kindString, field: func(c *Config) any { return &c.Isolation.Mode }},
	intKey("isolation.pool_size", 1, 4096, func(c *Config) any { return &c.Isolation.PoolSize }),
	intKey("isolation.call_timeout", 1, 86400, func(c *Config) any { return &c.Isolation.CallTimeout }),
	intKey("isolation.memory_mib", 64, 1<<20, func(c *Config) any { return &c.Isolation.MemoryMiB }),
	intKey("isolation.cpu_seconds", 1, 100_000_000, func(c *Config) any { return &c.Isolation.CPUSeconds }),
	intKey("isolation.max_crashes", 1, 1_000_000, func(c *Config) any { return &c.Isolation.MaxCrashes }),
	intKey("isolation.team_slots", 1, 1024, func(c *Config) any { return &c.Isolation.TeamSlots }),
	intKey("isolation.lanes", 1, 16, func(c *Config) any { return &c.Isolation.Lanes }),
	{name: "serve.listen", kind: kindString, field: func(c *Config) any { return &c.Serve.Listen }},
	{name: "serve.data_dir", kind: kindString, field: func(c *Config) any { return &c.Serve.DataDir }},
	{name: "serve.host_key", kind: kindString, field: func(c *Config) any { return &c.Serve.HostKey }},
	intKey("serve.sessions", 1, 100_000, func(c *Config) any { return &c.Serve.Sessions }),
	intKey("serve.sessions_per_ip", 1, 100_000, func(c *Config) any { return &c.Serve.SessionsPerIP }),
	intKey("serve.connections_per_minute", 1, 1_000_000, func(c *Config) any { return &c.Serve.ConnectionsPerMinute }),
	intKey("serve.handshake_timeout", 1, 3600, func(c *Config) any { return &c.Serve.HandshakeTimeout }),
	intKey("serve.idle_timeout", 10, 86400*7, func(c *Config) any { return &c.Serve.IdleTimeout }),
	intKey("serve.max_session", 10, 86400*30, func(c *Config) any { return &c.Serve.MaxSession }),
	intKey("serve.write_timeout", 1, 3600, func(c *Config) any { return &c.Serve.WriteTimeout }),
	intKey("serve.uploads_per_hour", 0, 100_000, func(c *Config) any { return &c.Serve.UploadsPerHour }),
	intKey("serve.players_per_user", 0, 10_000, func(c *Config) any { return &c.Serve.PlayersPerUser }),
	intKey("serve.new_users_per_ip_hour", 0, 100_000, func(c *Config) any { return &c.Serve.NewUsersPerIPHour }),
	intKey("serve.users", 1, 100_000, func(c *Config) any { return &c.Serve.Users }),
	intKey("serve.private_battles", 0, 10_000, func(c *Config) any { return &c.Serve.PrivateBattles }),
	intKey("serve.private_battles_per_user", 1, 10_000, func(c *Config) any { return &c.Serve.PrivateBattlesPerUser }),
	intKey("serve.max_size", 2, 2000, func(c *Config) any { return &c.Serve.MaxSize }),
	intKey("serve.max_rounds", 1, 10_000_000, func(c *Config) any { return &c.Serve.MaxRounds }),
	intKey("serve.fps", 1, 240, func(c *Config) any { return &c.Serve.FPS }),
	intKey("serve.channels_per_connection", 1, 1000, func(c *Config) any { return &c.Serve.ChannelsPerConnection }),
	intKey("serve.env_requests", 0, 1000, func(c *Config) any { return &c.Serve.EnvRequests }),
	intKey("serve.env_bytes", 0, 1<<20, func(c *Config) any { return &c.Serve.EnvBytes }),
	intKey("serve.command_timeout", 1, 3600, func(c *Config) any { return &c.Serve.CommandTimeout }),
	intKey("serve.checks", 1, 1000, func(c *Config) any { return &c.Serve.Checks }),
	intKey("serve.checks_per_ip", 1, 1000, func(c *Config) any { return &c.Serve.ChecksPerIP }),
	intKey("serve.checks_per_key", 1, 1000, func(c *Config) any { return &c.Serve.ChecksPerKey }),
	{name: "serve.anonymous", kind: kindBool, field: func(c *Config) any { return &c.Serve.Anonymous }},
	{name: "serve.allowlist", kind: kindString, field: func(c *Config) any { return &c.Serve.Allowlist }},
	{name: "serve.admins", kind: kindString, field: func(c *Config) any { return &c.Serve.Admins }},
	{name: "serve.featured_players", kind: kindString, field: func(c *Config) any { return &c.Serve.FeaturedPlayers }},
	intKey("serve.featured_size", 0, 2000, func(c *Config) any { return &c.Serve.FeaturedSize }),
	intKey("serve.featured_rounds", 0, 10_000_000, func(c *Config) any { return &c.Serve.FeaturedRounds }),
	intKey("serve.featured_seed", 0, 1<<53-1, func(c *Config) any { return &c.Serve.FeaturedSeed }),
	intKey("serve.bot_connections_per_user", 0, 10_000, func(c *Config) any { return &c.Serve.BotConnectionsPerUser }),
	intKey("serve.bot_connections", 0, 1_000_000, func(c *Config) any { return &c.Serve.BotConnections }),
	intKey("serve.bots.init_ms", 1, 3_600_000, func(c *Config) any { return &c.Serve.Bots.InitMS }),
	intKey("serve.bots.round_ms", 1, 3_600_000, func(c *Config) any { return &c.Serve.Bots.RoundMS }),
	intKey("serve.bots.bank_ms", 0, 3_600_000, func(c *Config) any { return &c.Serve.Bots.BankMS }),
	intKey("serve.bots.max_faults", 0, 1_000_000, func(c *Config) any { return &c.Serve.Bots.MaxFaults }),
	{name: "serve.ladder.enabled", kind: kindBool, field: func(c *Config) any { return &c.Serve.Ladder.Enabled }},
	{name: "serve.ladder.games", kind: kindString, field: func(c *Config) any { return &c.Serve.Ladder.Games }},
	intKey("serve.ladder.workers", 0, 4096, func(c *Config) any { return &c.Serve.Ladder.Workers }),
	intKey("serve.ladder.teams", 2, 16, func(c *Config) any { return &c.Serve.Ladder.Teams }),
	intKey("serve.ladder.size", 2, 2000, func(c *Config) any { return &c.Serve.Ladder.Size }),
	intKey("serve.ladder.rounds", 1, 10_000_000, func(c *Config) any { return &c.Serve.Ladder.Rounds }),
	intKey("serve.ladder.battles_kept", 0, 10_000, func(c *Config) any { return &c.Serve.Ladder.BattlesKept }),
	intKey("serve.ladder.disk_mib", 1, 1<<30, func(c *Config) any { return &c.Serve.Ladder.DiskMiB }),
	{name: "serve.ladder.db", kind: kindString, field: func(c *Config) any { return &c.Serve.Ladder.DB }},
	intKey("serve.ladder.seed", 0, 1<<62, func(c *Config) any { return &c.Serve.Ladder.Seed }),
	intKey("serve.ladder.ahead", 0, 4096, func(c *Config) any { return &c.Serve.Ladder.Ahead }),
	intKey("serve.ladder.rescue_seconds", 0, 7*86400, func(c *Config) any { return &c.Serve.Ladder.RescueSeconds }),
	intKey("bots.init_ms", 1, 3_600_000, func(c *Config) any { return &c.Bots.InitMS }),
	intKey("bots.round_ms", 1, 3_600_000, func(c *Config) any { return &c.Bots.RoundMS }),
	intKey("bots.bank_ms", 0, 3_600_000, func(c *Config) any { return &c.Bots.BankMS }),
	intKey("bots.max_faults", 0, 1_000_000, func(c *Config) any { return &c.Bots.MaxFaults }),
	intKey("ladder.teams", 0, 16, func(c *Config) any { return &c.Ladder.Teams }),
	intKey("ladder.size", 0, 2000, func(c *Config) any { return &c.Ladder.Size }),
	intKey("ladder.rounds", 0, 10_000_000, func(c *Config) any { return &c.Ladder.Rounds }),
}

// sections are the keys that hold a mapping rather than a value.
var sections = []string{"arena", "rules", "limits", "tui", "human", "isolation", "serve", "serve.ladder", "serve.bots", "bots", "ladder"}

func lookupKey(name string) *keySpec {
	for i := range keys {
		if keys[i].name == name {
			return &keys[i]
		}
	}
	return nil
}

func isSection(name string) bool {
	for _, s := range sections {
		if s == name {
			return true
		}
	}
	return false
}

// sectionKeys returns the leaf names under section, e.g. "size, wrap".
func sectionKeys(section string) string {
	var names []string
	for _, k := range keys {
		if rest, ok := strings.CutPrefix(k.name, section+"."); ok {
			names = append(names, rest)
		}
	}
	return strings.Join(names, ", ")
}

// DefaultFlagKeys returns the flag-name-to-key mapping Load uses when
// LoadOptions.FlagKeys is nil.
func DefaultFlagKeys() map[string]string {
	return map[string]string{
		"scripts": "scripts",
		"seed":    "seed",
		"workers": "workers",
		"size":    "arena.size",
		"rounds":  "rules.rounds",
		// --isolation none|process
		"isolation": "isolation.mode",
		// squarebattle serve --listen ADDR
		"listen": "serve.listen",
		// squarebattle serve --db postgres://…, squarebattle ladder work --db …
		"db": "serve.ladder.db",
	}
}

// parseText converts text from an environment variable or a flag into the
// key's internal type. Integers are plain base-10; booleans accept what
// strconv.ParseBool accepts. On failure it returns a reason.
func (k *keySpec) parseText(s string) (any, string) {
	switch k.kind {
	case kindInt:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, "is out of range"
			}
			return nil, k.kind.expect()
		}
		if reason := k.fits(n); reason != "" {
			return nil, reason
		}
		return n, ""
	case kindBool:
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return nil, k.kind.expect()
		}
		return b, ""
	default:
		return s, ""
	}
}

// fits returns a reason when n does not fit the Go type of the field
// (only possible for int fields on 32-bit platforms).
func (k *keySpec) fits(n int64) string {
	if _, ok := k.field(&Config{}).(*int); ok && int64(int(n)) != n {
		return "is out of range"
	}
	return ""
}

// format renders an internal value as text that parseText accepts back.
func format(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	panic("config: unexpected value type")
}

// suggestKey returns a known key (or section) within edit distance 2 of
// name, or a key whose last part equals name's last part (so a misplaced
// "size" suggests "arena.size"); "" if none.
func suggestKey(name string) string {
	var cands []string
	for _, k := range keys {
		cands = append(cands, k.name)
	}
	cands = append(cands, sections...)
	if s := closest(name, cands); s != "" {
		return s
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	for _, k := range keys {
		if k.name != name && k.name[strings.LastIndexByte(k.name, '.')+1:] == last {
			return k.name
		}
	}
	return ""
}

// suggestEnv returns a known variable within edit distance 2 of name.
func suggestEnv(name string) string {
	var cands []string
	for i := range keys {
		cands = append(cands, keys[i].env())
	}
	return closest(name, cands)
}

// closest returns the first candidate at the smallest edit distance from
// name, if that distance is at most 2.
func closest(name string, cands []string) string {
	best, bestD := "", 3
	for _, c := range cands {
		if d := suggest.Distance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
