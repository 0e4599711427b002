// Package config holds the single typed configuration of SquareBattle.
//
// Settings come from four layers, each one overriding the previous:
// built-in defaults, a YAML file, SQUAREBATTLE_* environment variables and
// command-line flags that were set explicitly. Load merges them and checks
// the result; every other package works with a plain *Config and never
// touches viper.
package config

import (
	"errors"
	"fmt"
	"strings"
)

// Config is the whole configuration. Keys in files, environment variable
// names and error messages use the snake_case names from the struct tags,
// joined with dots for nested sections (for example "arena.size").
type Config struct {
	// Scripts is the folder holding the player scripts. Empty means
	// ./scripts when it exists and the embedded scripts otherwise; the
	// caller makes that choice, Load keeps the empty string.
	Scripts string `mapstructure:"scripts" yaml:"scripts" json:"scripts"`
	// Seed seeds the battle. 0 asks the caller to pick a random seed (and
	// print it); Load never replaces 0.
	Seed int64 `mapstructure:"seed" yaml:"seed" json:"seed"`
	// Workers is how many goroutines run the team VMs; 0 means one per CPU.
	Workers int `mapstructure:"workers" yaml:"workers" json:"workers"`

	Arena  Arena  `mapstructure:"arena" yaml:"arena" json:"arena"`
	Rules  Rules  `mapstructure:"rules" yaml:"rules" json:"rules"`
	Limits Limits `mapstructure:"limits" yaml:"limits" json:"limits"`
	TUI    TUI    `mapstructure:"tui" yaml:"tui" json:"tui"`
	// Human paces a battle with a person at the keys (play --human).
	Human Human `mapstructure:"human" yaml:"human" json:"human"`
	// Isolation says where team VMs run: in this process, or in worker
	// processes behind OS limits (luabind/worker).
	Isolation Isolation `mapstructure:"isolation" yaml:"isolation" json:"isolation"`
	// Serve configures `squarebattle serve`, the SSH arena (tui/ssh).
	Serve Serve `mapstructure:"serve" yaml:"serve" json:"serve"`
	// Bots is the wall clock external bots play under (docs/bots.md).
	Bots Bots `mapstructure:"bots" yaml:"bots" json:"bots"`
	// Ladder is a rule mod's ladder: set only in its game.yaml, where a
	// ladder section puts the game on the arena's ladder (SquareBattle's
	// is serve.ladder). Zero: not on the ladder.
	Ladder GameLadder `mapstructure:"ladder" yaml:"ladder,omitempty" json:"ladder,omitempty"`
	// Options are a rule mod's own settings (its rules.lua declares them
	// and their defaults), by name, as written: "options.growth: 2" in a
	// file, SQUAREBATTLE_OPTIONS_GROWTH=2, or --option growth=2. The game
	// checks the names and values.
	Options map[string]string `mapstructure:"options" yaml:"options,omitempty" json:"options,omitempty"`
}

// Arena describes the battlefield.
type Arena struct {
	Size int  `mapstructure:"size" yaml:"size" json:"size"` // side length N of the N×N arena
	Wrap bool `mapstructure:"wrap" yaml:"wrap" json:"wrap"` // edges wrap around (torus)
}

// Rules are the game rules.
type Rules struct {
	Rounds          int `mapstructure:"rounds" yaml:"rounds" json:"rounds"`                               // round limit
	ReplicateRounds int `mapstructure:"replicate_rounds" yaml:"replicate_rounds" json:"replicate_rounds"` // rounds parent and child stay still after replicating
	TimeLimit       int `mapstructure:"time_limit" yaml:"time_limit" json:"time_limit"`                   // seconds, interactive battles only; 0 = none
}

// Limits bound what a team's Lua scripts may consume.
type Limits struct {
	Instructions int `mapstructure:"instructions" yaml:"instructions" json:"instructions"` // VM instructions per call
	MemoryMiB    int `mapstructure:"memory_mib" yaml:"memory_mib" json:"memory_mib"`       // Lua heap per team VM, MiB
	StringBytes  int `mapstructure:"string_bytes" yaml:"string_bytes" json:"string_bytes"` // longest string a script may build
	ScriptBytes  int `mapstructure:"script_bytes" yaml:"script_bytes" json:"script_bytes"` // largest script file accepted
	CallDepth    int `mapstructure:"call_depth" yaml:"call_depth" json:"call_depth"`       // Lua call-stack depth
	// RulesInstructions bounds one call to a rule mod's rules.lua (setup,
	// turns or resolve); rules that run past it stop the battle.
	RulesInstructions int `mapstructure:"rules_instructions" yaml:"rules_instructions" json:"rules_instructions"`
}

// Isolation configures the worker processes team VMs run in.
type Isolation struct {
	Mode        string `mapstructure:"mode" yaml:"mode" json:"mode"`                         // "process" or "none"
	PoolSize    int    `mapstructure:"pool_size" yaml:"pool_size" json:"pool_size"`          // idle workers kept for the next battle
	CallTimeout int    `mapstructure:"call_timeout" yaml:"call_timeout" json:"call_timeout"` // seconds, the floor of a request's wall-clock bound
	MemoryMiB   int    `mapstructure:"memory_mib" yaml:"memory_mib" json:"memory_mib"`       // per worker
	CPUSeconds  int    `mapstructure:"cpu_seconds" yaml:"cpu_seconds" json:"cpu_seconds"`    // per worker, over its life
	MaxCrashes  int    `mapstructure:"max_crashes" yaml:"max_crashes" json:"max_crashes"`    // worker deaths that retire a team for the battle
	TeamSlots   int    `mapstructure:"team_slots" yaml:"team_slots" json:"team_slots"`       // a tournament's teams of one player one worker plays at once
	Lanes       int    `mapstructure:"lanes" yaml:"lanes" json:"lanes"`                      // worker groups a tournament plays in side by side
}

// Bots is the wall clock external bots play under: they cannot be
// counted in Lua instructions (docs/bots.md, "Time").
type Bots struct {
	InitMS  int `mapstructure:"init_ms" yaml:"init_ms" json:"init_ms"`    // from starting a bot to its ready
	RoundMS int `mapstructure:"round_ms" yaml:"round_ms" json:"round_ms"` // per round message, to the answer
	BankMS  int `mapstructure:"bank_ms" yaml:"bank_ms" json:"bank_ms"`    // most unused time a bot may save up
	// MaxFaults is how many faults in a row (late or rejected answers)
	// retire a bot's team; 0 never does.
	MaxFaults int `mapstructure:"max_faults" yaml:"max_faults" json:"max_faults"`
}

// Isolation modes.
const (
	IsolationNone    = "none"
	IsolationProcess = "process"
)

// TUI configures the terminal front end.
type TUI struct {
	Speed int `mapstructure:"speed" yaml:"speed" json:"speed"` // target rounds per second; 0 = as fast as possible
	FPS   int `mapstructure:"fps" yaml:"fps" json:"fps"`       // frame cap
	// Rewind is how many past rounds a live battle keeps for stepping
	// back with the Left key; 0 keeps only the last few. Memory grows with
	// it and with how busy the arena is (a busy 150×150 arena, 400 cells
	// changing a round: about 10 MB per 1000 rounds). Saving a battle does
	// not depend on it.
	Rewind int `mapstructure:"rewind" yaml:"rewind" json:"rewind"`
	// Replays is the folder w saves a battle's replay to; "" is the
	// user's data folder, $XDG_DATA_HOME/squarebattle/replays or
	// ~/.local/share/squarebattle/replays (ReplaysDir). Replays are the
	// user's own files to keep, not a cache nor configuration, and not
	// something to drop into whatever folder the program ran in.
	Replays string `mapstructure:"replays" yaml:"replays" json:"replays"`
}

// Human paces a battle in which a person plays a team from the keyboard.
// A person needs time to see and press, so such a battle runs at its own
// pace rather than tui.speed, and never waits for a key: a round whose
// human has not decided plays the human's standing orders.
type Human struct {
	// Pace is SquareBattle's rounds per second with a human playing.
	Pace int `mapstructure:"pace" yaml:"pace" json:"pace"`
	// SteerPace is a rule mod's rounds per second with a human steering
	// (snake, paint): one step per round, so faster than Pace.
	SteerPace int `mapstructure:"steer_pace" yaml:"steer_pace" json:"steer_pace"`
	// Countdown is the seconds shown counting down before the first round.
	Countdown int `mapstructure:"countdown" yaml:"countdown" json:"countdown"`
	// Idle is the seconds without a key after which the human's team plays
	// its autopilot alone (its standing orders are set aside until the
	// next key); 0 never.
	Idle int `mapstructure:"idle" yaml:"idle" json:"idle"`
	// Autopilot is the class the human's squares without an order run:
	// "" waits (SquareBattle), or, in a rule mod, keeps the last steer.
	Autopilot string `mapstructure:"autopilot" yaml:"autopilot" json:"autopilot"`
}

// Default returns the built-in configuration. config/default.yaml holds
// exactly these values.
func Default() Config {
	return Config{
		Scripts: "",
		Seed:    0,
		Workers: 0,
		Arena:   Arena{Size: 48, Wrap: true},
		Rules:   Rules{Rounds: 1500, ReplicateRounds: 100, TimeLimit: 0},
		Limits: Limits{
			Instructions: 10000,
			MemoryMiB:    64,
			StringBytes:  1 << 20,
			ScriptBytes:  256 << 10,
			CallDepth:    1000,

			RulesInstructions: 50_000_000,
		},
		TUI:   TUI{Speed: 20, FPS: 30, Rewind: 5000},
		Human: Human{Pace: 4, SteerPace: 8, Countdown: 3, Idle: 30},
		Isolation: Isolation{Mode: IsolationProcess, PoolSize: 4, CallTimeout: 10, MemoryMiB: 1024,
			CPUSeconds: 3600, MaxCrashes: 3, TeamSlots: 32, Lanes: 2},
		Serve: DefaultServe(),
		Bots:  Bots{InitMS: 5000, RoundMS: 200, BankMS: 1000, MaxFaults: 10},
	}
}

// ErrInvalid is matched (errors.Is) by every error that describes a bad
// configuration: a value out of range or of the wrong type, an unknown key,
// a malformed file.
var ErrInvalid = errors.New("invalid configuration")

// ErrUnknownKey is matched by *UnknownKeyError.
var ErrUnknownKey = errors.New("unknown configuration key")

// FieldError reports one bad value.
type FieldError struct {
	Key    string // dotted key, e.g. "arena.size"
	Value  any    // offending value; nil when there is nothing useful to show
	Reason string // e.g. "must be between 2 and 2000"
	// Source says where the value came from: a file name,
	// "env SQUAREBATTLE_ARENA_SIZE", "flag --size", or "" (Validate, defaults).
	Source string
	// Line is the line in the file named by Source; 0 when unknown or not a file.
	Line int
}

func (e *FieldError) Error() string {
	var b strings.Builder
	writeWhere(&b, e.Source, e.Line)
	b.WriteString(e.Key)
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Value != nil {
		b.WriteString(" (got ")
		if s, ok := e.Value.(string); ok {
			fmt.Fprintf(&b, "%q", s)
		} else {
			fmt.Fprintf(&b, "%v", e.Value)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// UnknownKeyError reports a key (or environment variable) that the
// configuration does not know.
type UnknownKeyError struct {
	// Key is the dotted key as written in the file or flag mapping, or the
	// full variable name (SQUAREBATTLE_...) when Source is "env".
	Key string
	// Source is a file name, "env", or "flag --name".
	Source string
	// Line is the line in the file; 0 when unknown or not a file.
	Line int
	// Suggestion is a known key (or variable) close to Key; may be empty.
	Suggestion string
}

func (e *UnknownKeyError) Error() string {
	var b strings.Builder
	writeWhere(&b, e.Source, e.Line)
	if e.Source == "env" {
		b.WriteString("unknown variable ")
		b.WriteString(e.Key)
	} else {
		fmt.Fprintf(&b, "unknown key %q", e.Key)
	}
	if e.Suggestion != "" {
		fmt.Fprintf(&b, " (did you mean %s?)", e.Suggestion)
	}
	return b.String()
}

// Unwrap makes both errors.Is(err, ErrUnknownKey) and errors.Is(err, ErrInvalid) true.
func (e *UnknownKeyError) Unwrap() []error { return []error{ErrUnknownKey, ErrInvalid} }

// SyntaxError reports a configuration file that is not usable YAML (or
// whose overall shape is wrong, e.g. a list at the top level).
type SyntaxError struct {
	File string
	Line int // 0 when the parser did not say
	Msg  string
}

func (e *SyntaxError) Error() string {
	var b strings.Builder
	writeWhere(&b, e.File, e.Line)
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *SyntaxError) Unwrap() error { return ErrInvalid }

// writeWhere writes "source:line: ", "source: " or nothing.
func writeWhere(b *strings.Builder, source string, line int) {
	if source == "" {
		return
	}
	b.WriteString(source)
	if line > 0 {
		fmt.Fprintf(b, ":%d", line)
	}
	b.WriteString(": ")
}

// Validate checks every value against its allowed range. It returns nil, a
// single *FieldError, or an errors.Join of several of them, in key order.
// Source is empty in these errors; Load fills it in.
func (c Config) Validate() error {
	return joinFieldErrors(c.check())
}

func (c Config) check() []*FieldError {
	var errs []*FieldError
	if m := c.Isolation.Mode; m != IsolationNone && m != IsolationProcess {
		errs = append(errs, &FieldError{Key: "isolation.mode", Value: m, Reason: "must be none or process"})
	}
	errs = append(errs, c.Serve.check()...)
	errs = append(errs, c.TUI.check()...)
	errs = append(errs, c.Human.check()...)
	for i := range keys {
		k := &keys[i]
		if !k.bounded {
			continue
		}
		n := k.int64Of(&c)
		if n < k.min || n > k.max {
			errs = append(errs, &FieldError{
				Key:    k.name,
				Value:  n,
				Reason: fmt.Sprintf("must be between %d and %d", k.min, k.max),
			})
		}
	}
	return errs
}

func joinFieldErrors(errs []*FieldError) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	list := make([]error, len(errs))
	for i, e := range errs {
		list[i] = e
	}
	return errors.Join(list...)
}
