package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestDefaultIsValid(t *testing.T) {
	if err := Default().Validate(); err != nil {
		t.Fatalf("Default().Validate() = %v", err)
	}
}

// TestValidateBounds checks both ends of every bounded key: the bound
// itself passes, one step beyond fails naming the key.
func TestValidateBounds(t *testing.T) {
	tests := []struct {
		key    string
		set    func(c *Config, v int64)
		lo, hi int64
	}{
		{"workers", func(c *Config, v int64) { c.Workers = int(v) }, 0, 4096},
		{"arena.size", func(c *Config, v int64) { c.Arena.Size = int(v) }, 2, 2000},
		{"rules.rounds", func(c *Config, v int64) { c.Rules.Rounds = int(v) }, 1, 10_000_000},
		{"rules.replicate_rounds", func(c *Config, v int64) { c.Rules.ReplicateRounds = int(v) }, 0, 1_000_000},
		{"rules.time_limit", func(c *Config, v int64) { c.Rules.TimeLimit = int(v) }, 0, 604800},
		{"limits.instructions", func(c *Config, v int64) { c.Limits.Instructions = int(v) }, 100, 100_000_000},
		{"limits.memory_mib", func(c *Config, v int64) { c.Limits.MemoryMiB = int(v) }, 1, 16384},
		{"limits.string_bytes", func(c *Config, v int64) { c.Limits.StringBytes = int(v) }, 256, 1 << 30},
		{"limits.script_bytes", func(c *Config, v int64) { c.Limits.ScriptBytes = int(v) }, 1024, 64 << 20},
		{"limits.rules_instructions", func(c *Config, v int64) { c.Limits.RulesInstructions = int(v) }, 1000, 1_000_000_000},
		{"limits.call_depth", func(c *Config, v int64) { c.Limits.CallDepth = int(v) }, 16, 10000},
		{"tui.speed", func(c *Config, v int64) { c.TUI.Speed = int(v) }, 0, 100000},
		{"tui.fps", func(c *Config, v int64) { c.TUI.FPS = int(v) }, 1, 240},
		{"tui.rewind", func(c *Config, v int64) { c.TUI.Rewind = int(v) }, 0, 10_000_000},
		{"isolation.pool_size", func(c *Config, v int64) { c.Isolation.PoolSize = int(v) }, 1, 4096},
		{"isolation.team_slots", func(c *Config, v int64) { c.Isolation.TeamSlots = int(v) }, 1, 1024},
		{"isolation.call_timeout", func(c *Config, v int64) { c.Isolation.CallTimeout = int(v) }, 1, 86400},
		{"isolation.memory_mib", func(c *Config, v int64) { c.Isolation.MemoryMiB = int(v) }, 64, 1 << 20},
		{"isolation.cpu_seconds", func(c *Config, v int64) { c.Isolation.CPUSeconds = int(v) }, 1, 100_000_000},
		{"isolation.max_crashes", func(c *Config, v int64) { c.Isolation.MaxCrashes = int(v) }, 1, 1_000_000},
		{"bots.init_ms", func(c *Config, v int64) { c.Bots.InitMS = int(v) }, 1, 3_600_000},
		{"bots.round_ms", func(c *Config, v int64) { c.Bots.RoundMS = int(v) }, 1, 3_600_000},
		{"bots.bank_ms", func(c *Config, v int64) { c.Bots.BankMS = int(v) }, 0, 3_600_000},
		{"bots.max_faults", func(c *Config, v int64) { c.Bots.MaxFaults = int(v) }, 0, 1_000_000},
		{"serve.sessions", func(c *Config, v int64) { c.Serve.Sessions = int(v) }, 1, 100_000},
		{"serve.sessions_per_ip", func(c *Config, v int64) { c.Serve.SessionsPerIP = int(v) }, 1, 100_000},
		{"serve.connections_per_minute", func(c *Config, v int64) { c.Serve.ConnectionsPerMinute = int(v) }, 1, 1_000_000},
		{"serve.handshake_timeout", func(c *Config, v int64) { c.Serve.HandshakeTimeout = int(v) }, 1, 3600},
		{"serve.idle_timeout", func(c *Config, v int64) { c.Serve.IdleTimeout = int(v) }, 10, 86400 * 7},
		{"serve.max_session", func(c *Config, v int64) { c.Serve.MaxSession = int(v) }, 10, 86400 * 30},
		{"serve.write_timeout", func(c *Config, v int64) { c.Serve.WriteTimeout = int(v) }, 1, 3600},
		{"serve.uploads_per_hour", func(c *Config, v int64) { c.Serve.UploadsPerHour = int(v) }, 0, 100_000},
		{"serve.players_per_user", func(c *Config, v int64) { c.Serve.PlayersPerUser = int(v) }, 0, 10_000},
		{"serve.new_users_per_ip_hour", func(c *Config, v int64) { c.Serve.NewUsersPerIPHour = int(v) }, 0, 100_000},
		{"serve.users", func(c *Config, v int64) { c.Serve.Users = int(v) }, 1, 100_000},
		{"serve.private_battles", func(c *Config, v int64) { c.Serve.PrivateBattles = int(v) }, 0, 10_000},
		{"serve.private_battles_per_user", func(c *Config, v int64) { c.Serve.PrivateBattlesPerUser = int(v) }, 1, 10_000},
		{"human.pace", func(c *Config, v int64) { c.Human.Pace = int(v) }, 1, 60},
		{"human.steer_pace", func(c *Config, v int64) { c.Human.SteerPace = int(v) }, 1, 60},
		{"human.countdown", func(c *Config, v int64) { c.Human.Countdown = int(v) }, 0, 60},
		{"human.idle", func(c *Config, v int64) { c.Human.Idle = int(v) }, 0, 86400},
		{"isolation.lanes", func(c *Config, v int64) { c.Isolation.Lanes = int(v) }, 1, 16},
		{"serve.max_size", func(c *Config, v int64) { c.Serve.MaxSize = int(v) }, 2, 2000},
		{"serve.max_rounds", func(c *Config, v int64) { c.Serve.MaxRounds = int(v) }, 1, 10_000_000},
		{"serve.fps", func(c *Config, v int64) { c.Serve.FPS = int(v) }, 1, 240},
		{"serve.channels_per_connection", func(c *Config, v int64) { c.Serve.ChannelsPerConnection = int(v) }, 1, 1000},
		{"serve.env_requests", func(c *Config, v int64) { c.Serve.EnvRequests = int(v) }, 0, 1000},
		{"serve.env_bytes", func(c *Config, v int64) { c.Serve.EnvBytes = int(v) }, 0, 1 << 20},
		{"serve.command_timeout", func(c *Config, v int64) { c.Serve.CommandTimeout = int(v) }, 1, 3600},
		{"serve.checks", func(c *Config, v int64) { c.Serve.Checks = int(v) }, 1, 1000},
		{"serve.checks_per_ip", func(c *Config, v int64) { c.Serve.ChecksPerIP = int(v) }, 1, 1000},
		{"serve.checks_per_key", func(c *Config, v int64) { c.Serve.ChecksPerKey = int(v) }, 1, 1000},
		{"serve.featured_size", func(c *Config, v int64) { c.Serve.FeaturedSize = int(v) }, 0, 2000},
		{"serve.featured_rounds", func(c *Config, v int64) { c.Serve.FeaturedRounds = int(v) }, 0, 10_000_000},
		{"serve.featured_seed", func(c *Config, v int64) { c.Serve.FeaturedSeed = v }, 0, 1<<53 - 1},
		{"serve.bot_connections_per_user", func(c *Config, v int64) { c.Serve.BotConnectionsPerUser = int(v) }, 0, 10_000},
		{"serve.bot_connections", func(c *Config, v int64) { c.Serve.BotConnections = int(v) }, 0, 1_000_000},
		{"serve.bots.init_ms", func(c *Config, v int64) { c.Serve.Bots.InitMS = int(v) }, 1, 3_600_000},
		{"serve.bots.round_ms", func(c *Config, v int64) { c.Serve.Bots.RoundMS = int(v) }, 1, 3_600_000},
		{"serve.bots.bank_ms", func(c *Config, v int64) { c.Serve.Bots.BankMS = int(v) }, 0, 3_600_000},
		{"serve.bots.max_faults", func(c *Config, v int64) { c.Serve.Bots.MaxFaults = int(v) }, 0, 1_000_000},
		{"serve.ladder.workers", func(c *Config, v int64) { c.Serve.Ladder.Workers = int(v) }, 0, 4096},
		{"serve.ladder.teams", func(c *Config, v int64) { c.Serve.Ladder.Teams = int(v) }, 2, 16},
		{"serve.ladder.size", func(c *Config, v int64) { c.Serve.Ladder.Size = int(v) }, 2, 2000},
		{"serve.ladder.rounds", func(c *Config, v int64) { c.Serve.Ladder.Rounds = int(v) }, 1, 10_000_000},
		{"serve.ladder.battles_kept", func(c *Config, v int64) { c.Serve.Ladder.BattlesKept = int(v) }, 0, 10_000},
		{"serve.ladder.disk_mib", func(c *Config, v int64) { c.Serve.Ladder.DiskMiB = int(v) }, 1, 1 << 30},
		{"serve.ladder.seed", func(c *Config, v int64) { c.Serve.Ladder.Seed = v }, 0, 1 << 62},
		{"serve.ladder.ahead", func(c *Config, v int64) { c.Serve.Ladder.Ahead = int(v) }, 0, 4096},
		{"serve.ladder.rescue_seconds", func(c *Config, v int64) { c.Serve.Ladder.RescueSeconds = int(v) }, 0, 7 * 86400},
		{"ladder.teams", func(c *Config, v int64) { c.Ladder.Teams = int(v) }, 0, 16},
		{"ladder.size", func(c *Config, v int64) { c.Ladder.Size = int(v) }, 0, 2000},
		{"ladder.rounds", func(c *Config, v int64) { c.Ladder.Rounds = int(v) }, 0, 10_000_000},
	}
	for _, tt := range tests {
		cases := []struct {
			v  int64
			ok bool
		}{{tt.lo, true}, {tt.lo - 1, false}, {tt.hi, true}, {tt.hi + 1, false}}
		for _, cs := range cases {
			t.Run(fmt.Sprintf("%s=%d", tt.key, cs.v), func(t *testing.T) {
				c := Default()
				tt.set(&c, cs.v)
				err := c.Validate()
				if cs.ok {
					if err != nil {
						t.Fatalf("Validate() = %v, want nil", err)
					}
					return
				}
				var fe *FieldError
				if !errors.As(err, &fe) {
					t.Fatalf("Validate() = %v (%T), want *FieldError", err, err)
				}
				if fe.Key != tt.key || !errors.Is(err, ErrInvalid) {
					t.Fatalf("error key %q (is ErrInvalid %v), want %q", fe.Key, errors.Is(err, ErrInvalid), tt.key)
				}
				want := fmt.Sprintf("%s: must be between %d and %d (got %d)", tt.key, tt.lo, tt.hi, cs.v)
				if err.Error() != want {
					t.Fatalf("Validate() = %q, want %q", err.Error(), want)
				}
			})
		}
	}
	// Every bounded key in the table above, and no other.
	var bounded []string
	for _, k := range keys {
		if k.bounded {
			bounded = append(bounded, k.name)
		}
	}
	if len(bounded) != len(tests) {
		t.Errorf("keys has %d bounded keys %v, test covers %d", len(bounded), bounded, len(tests))
	}
}

func TestValidateJoinsErrors(t *testing.T) {
	c := Default()
	c.Arena.Size = 1
	c.TUI.FPS = 0
	err := c.Validate()
	if err == nil {
		t.Fatal("Validate() = nil")
	}
	want := "arena.size: must be between 2 and 2000 (got 1)\ntui.fps: must be between 1 and 240 (got 0)"
	if err.Error() != want {
		t.Fatalf("Validate() = %q, want %q", err.Error(), want)
	}
	if !errors.Is(err, ErrInvalid) {
		t.Fatal("joined error does not match ErrInvalid")
	}
}

func TestErrorStrings(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&FieldError{Key: "arena.size", Value: int64(1), Reason: "must be between 2 and 2000", Source: "squarebattle.yaml"},
			"squarebattle.yaml: arena.size: must be between 2 and 2000 (got 1)"},
		{&FieldError{Key: "arena.size", Value: "big", Reason: "must be an integer", Source: "squarebattle.yaml", Line: 3},
			`squarebattle.yaml:3: arena.size: must be an integer (got "big")`},
		{&FieldError{Key: "seed", Reason: "must be an integer, but is empty"},
			"seed: must be an integer, but is empty"},
		{&UnknownKeyError{Key: "arena.sise", Source: "squarebattle.yaml", Suggestion: "arena.size"},
			`squarebattle.yaml: unknown key "arena.sise" (did you mean arena.size?)`},
		{&UnknownKeyError{Key: "SQUAREBATTLE_NOPE", Source: "env"},
			"env: unknown variable SQUAREBATTLE_NOPE"},
		{&SyntaxError{File: "x.yaml", Line: 4, Msg: "malformed YAML: oops"}, "x.yaml:4: malformed YAML: oops"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if !errors.Is(tt.err, ErrInvalid) {
			t.Errorf("%q does not match ErrInvalid", tt.want)
		}
	}
	if !errors.Is(&UnknownKeyError{}, ErrUnknownKey) {
		t.Error("UnknownKeyError does not match ErrUnknownKey")
	}
}

// TestKeysMatchStruct keeps the key table, the mapstructure tags and the
// yaml tags in step.
func TestKeysMatchStruct(t *testing.T) {
	var fromStruct []string
	var walk func(typ reflect.Type, prefix string)
	walk = func(typ reflect.Type, prefix string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			ms, yt := f.Tag.Get("mapstructure"), strings.TrimSuffix(f.Tag.Get("yaml"), ",omitempty")
			if ms == "" || ms != yt {
				t.Errorf("field %s: mapstructure tag %q, yaml tag %q", f.Name, ms, yt)
			}
			if f.Type.Kind() == reflect.Struct {
				walk(f.Type, prefix+ms+".")
				continue
			}
			if f.Type.Kind() == reflect.Map {
				continue // options: free names, checked by the game
			}
			fromStruct = append(fromStruct, prefix+ms)
		}
	}
	walk(reflect.TypeOf(Config{}), "")
	var fromTable []string
	for _, k := range keys {
		fromTable = append(fromTable, k.name)
	}
	if !reflect.DeepEqual(fromStruct, fromTable) {
		t.Fatalf("struct keys %v\ntable keys  %v", fromStruct, fromTable)
	}
	// Each table entry points at the field its name says.
	var c Config
	for i := range keys {
		k := &keys[i]
		c = Config{}
		switch p := k.field(&c).(type) {
		case *int:
			*p = 7
		case *int64:
			*p = 7
		case *bool:
			*p = true
		case *string:
			*p = "x"
		}
		got := map[string]any{}
		if err := yaml.Unmarshal(c.YAML(), &got); err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(k.name, ".")
		m := got
		for _, p := range parts[:len(parts)-1] {
			m = m[p].(map[string]any)
		}
		v := m[parts[len(parts)-1]]
		if v != 7 && v != true && v != "x" {
			t.Errorf("key %s: setting its field changed YAML value to %v", k.name, v)
		}
	}
}

// TestDefaultYAML: default.yaml, loaded alone, is exactly Default(), and
// every key in it carries a comment.
func TestDefaultYAML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "default.yaml")
	if err := os.WriteFile(path, DefaultYAML(), 0o644); err != nil {
		t.Fatal(err)
	}
	c, used, err := Load(LoadOptions{File: path, UserDir: t.TempDir()})
	if err != nil {
		t.Fatalf("Load(default.yaml): %v", err)
	}
	if used != path {
		t.Errorf("file used = %q, want %q", used, path)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Fatalf("default.yaml gives\n%+v\nwant Default()\n%+v", c, Default())
	}

	// Every key appears, with a comment above or beside it.
	var doc yaml.Node
	if err := yaml.Unmarshal(DefaultYAML(), &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		for i := 0; i+1 < len(n.Content); i += 2 {
			kn, vn := n.Content[i], n.Content[i+1]
			if vn.Kind == yaml.MappingNode {
				walk(vn, prefix+kn.Value+".")
				continue
			}
			documented[prefix+kn.Value] = kn.HeadComment != "" || kn.LineComment != ""
		}
	}
	walk(doc.Content[0], "")
	gameKeys := 0
	for _, k := range keys {
		if gameOnly(k.name) {
			gameKeys++ // a game.yaml's, refused in a user's file
			continue
		}
		has, ok := documented[k.name]
		if !ok {
			t.Errorf("default.yaml lacks key %s", k.name)
		} else if !has {
			t.Errorf("default.yaml key %s has no comment", k.name)
		}
	}
	if len(documented) != len(keys)-gameKeys {
		t.Errorf("default.yaml has %d keys, want %d", len(documented), len(keys)-gameKeys)
	}
}

// TestServeListen: serve.listen must be an address to listen on, and
// serve.featured_size 1 (neither "arena.size" nor an arena) is refused.
func TestServeListen(t *testing.T) {
	for _, tt := range []struct {
		listen string
		size   int
		ok     bool
	}{
		{"127.0.0.1:2222", 0, true}, {":2222", 2, true}, {"[::1]:0", 0, true},
		{"", 0, false}, {"2222", 0, false}, {"host:http", 0, false}, {"host:70000", 0, false}, {"a b:22", 0, false},
		{":2222", 1, false},
	} {
		c := Default()
		c.Serve.Listen, c.Serve.FeaturedSize = tt.listen, tt.size
		err := c.Validate()
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrInvalid)) {
			t.Errorf("listen %q size %d: Validate() = %v, want ok %v", tt.listen, tt.size, err, tt.ok)
		}
	}
}

// TestHumanAutopilot: human.autopilot is empty or a class id.
func TestHumanAutopilot(t *testing.T) {
	for _, tt := range []struct {
		id string
		ok bool
	}{{"", true}, {"explorer", true}, {"my-pilot_2", true}, {"../x", false}, {"a b", false}, {"x\x1b[2J", false}, {strings.Repeat("a", 65), false}} {
		c := Default()
		c.Human.Autopilot = tt.id
		err := c.Validate()
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("autopilot %q: Validate() = %v, want ok %v", tt.id, err, tt.ok)
		}
	}
}

// TestIsolationMode: only none and process are modes.
func TestIsolationMode(t *testing.T) {
	for _, tt := range []struct {
		mode string
		ok   bool
	}{{"none", true}, {"process", true}, {"", false}, {"Process", false}, {"container", false}} {
		c := Default()
		c.Isolation.Mode = tt.mode
		err := c.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("mode %q: Validate() = %v, want ok %v", tt.mode, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("mode %q: %v is not ErrInvalid", tt.mode, err)
		}
	}
}

func TestYAMLRoundTrip(t *testing.T) {
	custom := Config{
		Scripts: "my scripts: v2",
		Seed:    -9007199254740993,
		Workers: 3,
		Arena:   Arena{Size: 2000, Wrap: false},
		Rules:   Rules{Rounds: 1, ReplicateRounds: 0, TimeLimit: 604800},
		Limits: Limits{
			Instructions: 100,
			MemoryMiB:    16384,
			StringBytes:  256,
			ScriptBytes:  64 << 20,
			CallDepth:    16, RulesInstructions: 1000,
		},
		TUI:       TUI{Speed: 0, FPS: 240, Rewind: 7},
		Human:     Human{Pace: 60, SteerPace: 1, Countdown: 0, Idle: 86400, Autopilot: "my-pilot_2"},
		Isolation: Isolation{Mode: IsolationNone, PoolSize: 1, CallTimeout: 86400, MemoryMiB: 64, CPUSeconds: 1, MaxCrashes: 1, TeamSlots: 1024, Lanes: 16},
		Serve: Serve{Listen: "[::1]:0", DataDir: "data: dir", HostKey: "k", Sessions: 1, SessionsPerIP: 100_000,
			ConnectionsPerMinute: 1, HandshakeTimeout: 3600, IdleTimeout: 10, MaxSession: 86400 * 30, WriteTimeout: 1,
			UploadsPerHour: 0, PlayersPerUser: 10_000, NewUsersPerIPHour: 0, Users: 100_000, PrivateBattles: 0, PrivateBattlesPerUser: 10_000, MaxSize: 2, MaxRounds: 1, FPS: 240,
			ChannelsPerConnection: 1000, EnvRequests: 0, EnvBytes: 1 << 20, CommandTimeout: 1, Checks: 1000, ChecksPerIP: 1, ChecksPerKey: 7,
			Anonymous: false, Allowlist: "allow", Admins: "admins", FeaturedPlayers: "a, b", FeaturedSize: 2000,
			FeaturedRounds: 1, FeaturedSeed: 1<<53 - 1,
			BotConnectionsPerUser: 0, BotConnections: 1_000_000, Bots: Bots{InitMS: 1, RoundMS: 3_600_000, BankMS: 3_600_000, MaxFaults: 0},
			Ladder: ServeLadder{Enabled: false, Games: "paint, squarebattle", Workers: 4096, Teams: 16, Size: 2, Rounds: 10_000_000, BattlesKept: 0, DiskMiB: 1, DB: "l: db", Seed: 1 << 62, Ahead: 4096, RescueSeconds: 7 * 86400}},
		Bots: Bots{InitMS: 3_600_000, RoundMS: 1, BankMS: 0, MaxFaults: 1_000_000},
	}
	for name, want := range map[string]Config{"default": Default(), "custom": custom} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.yaml")
			if err := os.WriteFile(path, want.YAML(), 0o644); err != nil {
				t.Fatal(err)
			}
			got, _, err := Load(LoadOptions{File: path, UserDir: t.TempDir()})
			if err != nil {
				t.Fatalf("Load: %v\n%s", err, want.YAML())
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round trip gives\n%+v\nwant\n%+v", got, want)
			}
		})
	}

	// Same key layout as default.yaml.
	var a, b map[string]any
	if err := yaml.Unmarshal(Default().YAML(), &a); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(DefaultYAML(), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("Default().YAML() = %v\ndefault.yaml = %v", a, b)
	}
}

func TestSuggestKey(t *testing.T) {
	tests := map[string]string{
		"arena.sise":       "arena.size",
		"arean":            "arena",
		"size":             "arena.size",
		"limits.memory_mb": "limits.memory_mib",
		"colour":           "",
		"rules.wrap":       "arena.wrap",
	}
	names := make([]string, 0, len(tests))
	for k := range tests {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, in := range names {
		if got := suggestKey(in); got != tests[in] {
			t.Errorf("suggestKey(%q) = %q, want %q", in, got, tests[in])
		}
	}
}
