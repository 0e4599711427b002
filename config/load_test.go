package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// scenario describes one Load call. Paths in files and config are relative
// to a fresh temporary root holding "cwd" (LoadOptions.Dir) and "user"
// (LoadOptions.UserDir).
type scenario struct {
	files  map[string]string // e.g. "cwd/squarebattle.yaml" -> content
	config string            // LoadOptions.File, relative to the root
	env    []string
	args   []string
	keys   map[string]string // LoadOptions.FlagKeys; nil = testFlagKeys
}

// testFlagKeys is DefaultFlagKeys plus a few flags used to reach other
// keys, including a string-typed one so a bad integer can come from a flag.
func testFlagKeys() map[string]string {
	m := DefaultFlagKeys()
	m["fps"] = "tui.fps"
	m["wrap"] = "arena.wrap"
	m["memory"] = "limits.memory_mib"
	return m
}

func newFlags() *pflag.FlagSet {
	fs := pflag.NewFlagSet("squarebattle", pflag.ContinueOnError)
	fs.String("config", "", "")
	fs.String("scripts", "", "")
	fs.Int64("seed", 0, "")
	fs.Int("workers", 0, "")
	fs.Int("size", 99, "") // non-default default: must not leak in unless set
	fs.Int("rounds", 7, "")
	fs.String("fps", "", "")
	fs.Bool("wrap", true, "")
	fs.Int("memory", 64, "")
	return fs
}

func (s scenario) load(t *testing.T) (Config, string, string, error) {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"cwd", "user"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range s.files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fl := newFlags()
	if err := fl.Parse(s.args); err != nil {
		t.Fatalf("parsing flags %v: %v", s.args, err)
	}
	keys := s.keys
	if keys == nil {
		keys = testFlagKeys()
	}
	o := LoadOptions{
		Flags:    fl,
		FlagKeys: keys,
		Environ:  s.env,
		Dir:      filepath.Join(root, "cwd"),
		UserDir:  filepath.Join(root, "user"),
	}
	if s.config != "" {
		o.File = filepath.Join(root, s.config)
	}
	c, used, err := Load(o)
	if used != "" {
		rel, rerr := filepath.Rel(root, used)
		if rerr != nil {
			t.Fatal(rerr)
		}
		used = filepath.ToSlash(rel)
	}
	return c, used, root, err
}

func TestLoadLayers(t *testing.T) {
	const cwdFile = "cwd/squarebattle.yaml"
	tests := []struct {
		name     string
		s        scenario
		want     func(c *Config) // applied to Default()
		wantFile string
	}{
		{
			name: "defaults only",
			s:    scenario{},
			want: func(c *Config) {},
		},
		{
			name:     "file over defaults",
			s:        scenario{files: map[string]string{cwdFile: "arena:\n  size: 10\n"}},
			want:     func(c *Config) { c.Arena.Size = 10 },
			wantFile: cwdFile,
		},
		{
			name: "env over file",
			s: scenario{
				files: map[string]string{cwdFile: "arena:\n  size: 10\n"},
				env:   []string{"SQUAREBATTLE_ARENA_SIZE=20"},
			},
			want:     func(c *Config) { c.Arena.Size = 20 },
			wantFile: cwdFile,
		},
		{
			name: "flag over env over file",
			s: scenario{
				files: map[string]string{cwdFile: "arena:\n  size: 10\n"},
				env:   []string{"SQUAREBATTLE_ARENA_SIZE=20"},
				args:  []string{"--size=30"},
			},
			want:     func(c *Config) { c.Arena.Size = 30 },
			wantFile: cwdFile,
		},
		{
			name: "flag over defaults",
			s:    scenario{args: []string{"--size", "30", "--seed", "-5", "--scripts", "my dir"}},
			want: func(c *Config) { c.Arena.Size = 30; c.Seed = -5; c.Scripts = "my dir" },
		},
		{
			name: "unset flags do not override",
			s: scenario{
				files: map[string]string{cwdFile: "arena:\n  size: 10\nrules:\n  rounds: 11\n"},
				args:  []string{"--workers=2"},
			},
			want:     func(c *Config) { c.Arena.Size = 10; c.Rules.Rounds = 11; c.Workers = 2 },
			wantFile: cwdFile,
		},
		{
			name: "layers merge key by key",
			s: scenario{
				files: map[string]string{cwdFile: "seed: 42\narena:\n  wrap: false\nlimits:\n  call_depth: 50\n  memory_mib: 8\n"},
				env:   []string{"SQUAREBATTLE_LIMITS_MEMORY_MIB=128", "SQUAREBATTLE_SEED=43", "PATH=/bin"},
				args:  []string{"--rounds=99", "--fps=60"},
			},
			want: func(c *Config) {
				c.Seed = 43
				c.Arena.Wrap = false
				c.Limits.CallDepth = 50
				c.Limits.MemoryMiB = 128
				c.Rules.Rounds = 99
				c.TUI.FPS = 60
			},
			wantFile: cwdFile,
		},
		{
			name: "bool from env and flag",
			s: scenario{
				env:  []string{"SQUAREBATTLE_ARENA_WRAP=false", "SQUAREBATTLE_TUI_SPEED=0"},
				args: []string{"--wrap=false"},
			},
			want: func(c *Config) { c.Arena.Wrap = false; c.TUI.Speed = 0 },
		},
		{
			name: "empty env value counts as unset",
			s: scenario{
				files: map[string]string{cwdFile: "seed: 5\n"},
				env:   []string{"SQUAREBATTLE_SEED="},
			},
			want:     func(c *Config) { c.Seed = 5 },
			wantFile: cwdFile,
		},
		{
			name: "first of repeated env entries wins",
			s:    scenario{env: []string{"SQUAREBATTLE_WORKERS=3", "SQUAREBATTLE_WORKERS=4"}},
			want: func(c *Config) { c.Workers = 3 },
		},
		{
			name: "cwd file before user dir file",
			s: scenario{files: map[string]string{
				cwdFile:                  "workers: 1\n",
				"user/squarebattle.yaml": "workers: 2\n",
			}},
			want:     func(c *Config) { c.Workers = 1 },
			wantFile: cwdFile,
		},
		{
			name:     "user dir file when cwd has none",
			s:        scenario{files: map[string]string{"user/squarebattle.yaml": "workers: 2\n"}},
			want:     func(c *Config) { c.Workers = 2 },
			wantFile: "user/squarebattle.yaml",
		},
		{
			name:     ".yml accepted",
			s:        scenario{files: map[string]string{"user/squarebattle.yml": "workers: 5\n"}},
			want:     func(c *Config) { c.Workers = 5 },
			wantFile: "user/squarebattle.yml",
		},
		{
			name: ".yaml preferred over .yml",
			s: scenario{files: map[string]string{
				"cwd/squarebattle.yml": "workers: 5\n",
				cwdFile:                "workers: 6\n",
			}},
			want:     func(c *Config) { c.Workers = 6 },
			wantFile: cwdFile,
		},
		{
			name: "explicit file beats both directories",
			s: scenario{
				files: map[string]string{
					cwdFile:                  "workers: 1\n",
					"user/squarebattle.yaml": "workers: 2\n",
					"elsewhere/battle.yaml":  "workers: 3\n",
				},
				config: "elsewhere/battle.yaml",
			},
			want:     func(c *Config) { c.Workers = 3 },
			wantFile: "elsewhere/battle.yaml",
		},
		{
			name:     "empty and comment-only files",
			s:        scenario{files: map[string]string{cwdFile: "# nothing here\n"}},
			want:     func(c *Config) {},
			wantFile: cwdFile,
		},
		{
			name:     "empty section",
			s:        scenario{files: map[string]string{cwdFile: "arena:\nseed: 3\n"}},
			want:     func(c *Config) { c.Seed = 3 },
			wantFile: cwdFile,
		},
		{
			name: "yaml number forms",
			s: scenario{files: map[string]string{cwdFile: "rules:\n  rounds: 1e6\nlimits:\n  string_bytes: 0x400\n" +
				"  script_bytes: 1_024\nscripts: 2024\n"}},
			want: func(c *Config) {
				c.Rules.Rounds = 1_000_000
				c.Limits.StringBytes = 1024
				c.Limits.ScriptBytes = 1024
				c.Scripts = "2024"
			},
			wantFile: cwdFile,
		},
		{
			name:     "anchors and aliases",
			s:        scenario{files: map[string]string{cwdFile: "rules:\n  rounds: &n 77\ntui:\n  speed: *n\n"}},
			want:     func(c *Config) { c.Rules.Rounds = 77; c.TUI.Speed = 77 },
			wantFile: cwdFile,
		},
		{
			name: "empty FlagKeys maps no flag",
			s: scenario{
				keys: map[string]string{},
				args: []string{"--size=30"},
			},
			want: func(c *Config) {}, // empty mapping: --size is ignored
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, used, _, err := tt.s.load(t)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			want := Default()
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if used != tt.wantFile {
				t.Errorf("file used = %q, want %q", used, tt.wantFile)
			}
		})
	}
}

func TestLoadDefaultFlagKeys(t *testing.T) {
	fl := newFlags()
	if err := fl.Parse([]string{"--size=30", "--rounds=5", "--seed=9", "--workers=2", "--scripts=s", "--fps=1"}); err != nil {
		t.Fatal(err)
	}
	c, _, err := Load(LoadOptions{Flags: fl, Dir: t.TempDir(), UserDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Arena.Size, want.Rules.Rounds, want.Seed, want.Workers, want.Scripts = 30, 5, 9, 2, "s"
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got  %+v\nwant %+v", c, want)
	}
}

func TestLoadDirDefaultsToCwd(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("workers: 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	c, used, err := Load(LoadOptions{UserDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if c.Workers != 9 || used != FileName {
		t.Fatalf("workers %d from %q, want 9 from %q", c.Workers, used, FileName)
	}
}

func TestLoadErrors(t *testing.T) {
	const cwdFile = "cwd/squarebattle.yaml"
	file := func(content string) map[string]string { return map[string]string{cwdFile: content} }
	tests := []struct {
		name string
		s    scenario
		is   []error  // errors.Is targets
		want []string // exact lines of the message; "ROOT/" stands for the temp root
	}{
		{
			name: "explicit config file missing",
			s:    scenario{config: "nope.yaml", files: file("workers: 1\n")},
			is:   []error{fs.ErrNotExist},
			want: []string{"config file ROOT/nope.yaml: no such file or directory"},
		},
		{
			name: "unknown key with hint",
			s:    scenario{files: file("arena:\n  sise: 3\n")},
			is:   []error{ErrUnknownKey, ErrInvalid},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: unknown key "arena.sise" (did you mean arena.size?)`},
		},
		{
			name: "unknown key without hint",
			s:    scenario{files: file("colour: red\n")},
			is:   []error{ErrUnknownKey},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: unknown key "colour"`},
		},
		{
			name: "unknown section",
			s:    scenario{files: file("seed: 1\nareana:\n  size: 3\n")},
			is:   []error{ErrUnknownKey},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: unknown key "areana" (did you mean arena?)`},
		},
		{
			name: "key outside its section",
			s:    scenario{files: file("size: 3\n")},
			is:   []error{ErrUnknownKey},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: unknown key "size" (did you mean arena.size?)`},
		},
		{
			name: "unknown env var",
			s:    scenario{env: []string{"SQUAREBATTLE_ARENA_SISE=3"}},
			is:   []error{ErrUnknownKey, ErrInvalid},
			want: []string{"env: unknown variable SQUAREBATTLE_ARENA_SISE (did you mean SQUAREBATTLE_ARENA_SIZE?)"},
		},
		{
			name: "section name as env var",
			s:    scenario{env: []string{"SQUAREBATTLE_ARENA=3"}},
			is:   []error{ErrUnknownKey},
			want: []string{"env: unknown variable SQUAREBATTLE_ARENA"},
		},
		{
			name: "flag mapped to unknown key",
			s:    scenario{keys: map[string]string{"size": "arena.sizes"}, args: []string{"--size=3"}},
			is:   []error{ErrUnknownKey},
			want: []string{`flag --size: unknown key "arena.sizes" (did you mean arena.size?)`},
		},
		{
			name: "wrong type in file",
			s:    scenario{files: file("arena:\n  size: big\n")},
			is:   []error{ErrInvalid},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: arena.size: must be an integer (got "big")`},
		},
		{
			name: "quoted number in file",
			s:    scenario{files: file("seed: \"42\"\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: seed: must be an integer (got "42")`},
		},
		{
			name: "fraction in file",
			s:    scenario{files: file("workers: 1.5\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: workers: must be an integer (got "1.5")`},
		},
		{
			name: "integer overflow in file",
			s:    scenario{files: file("seed: 99999999999999999999\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: seed: is out of range (got "99999999999999999999")`},
		},
		{
			name: "wrong bool in file",
			s:    scenario{files: file("arena:\n  wrap: yes\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: arena.wrap: must be true or false (got "yes")`},
		},
		{
			name: "empty value for integer",
			s:    scenario{files: file("seed:\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: seed: must be an integer, but is empty`},
		},
		{
			name: "list for integer",
			s:    scenario{files: file("tui:\n  fps: [1, 2]\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: tui.fps: must be an integer, not a list`},
		},
		{
			name: "scalar for section",
			s:    scenario{files: file("arena: 5\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: arena: must be a mapping with keys size, wrap, not the value "5"`},
		},
		{
			name: "list at top level",
			s:    scenario{files: file("- seed\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: the top level must be a mapping of keys, not a list`},
		},
		{
			name: "duplicate key",
			s:    scenario{files: file("seed: 1\nworkers: 2\nseed: 3\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:3: key "seed" appears twice (first on line 1)`},
		},
		{
			name: "wrong type from env",
			s:    scenario{env: []string{"SQUAREBATTLE_ARENA_SIZE=abc"}},
			is:   []error{ErrInvalid},
			want: []string{`env SQUAREBATTLE_ARENA_SIZE: arena.size: must be an integer (got "abc")`},
		},
		{
			name: "wrong bool from env",
			s:    scenario{env: []string{"SQUAREBATTLE_ARENA_WRAP=maybe"}},
			want: []string{`env SQUAREBATTLE_ARENA_WRAP: arena.wrap: must be true or false (got "maybe")`},
		},
		{
			name: "env integers are base 10 only",
			s:    scenario{env: []string{"SQUAREBATTLE_SEED=0x10"}},
			want: []string{`env SQUAREBATTLE_SEED: seed: must be an integer (got "0x10")`},
		},
		{
			name: "wrong type from flag",
			s:    scenario{args: []string{"--fps=fast"}},
			is:   []error{ErrInvalid},
			want: []string{`flag --fps: tui.fps: must be an integer (got "fast")`},
		},
		{
			name: "two flags for one key",
			s:    scenario{keys: map[string]string{"fps": "tui.fps", "size": "tui.fps"}, args: []string{"--fps=3", "--size=4"}},
			want: []string{`flag --size: tui.fps: is also set by flag --fps; give only one of them`},
		},
		{
			name: "malformed yaml with line",
			s:    scenario{files: file("seed: 1\nworkers 2\narena: x\n")},
			is:   []error{ErrInvalid},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: malformed YAML: could not find expected ':'`},
		},
		{
			name: "malformed yaml on first line",
			s:    scenario{files: file("\tseed: 1\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:1: malformed YAML: found character that cannot start any token`},
		},
		{
			name: "two documents",
			s:    scenario{files: file("seed: 1\n---\nseed: 2\n")},
			want: []string{`ROOT/cwd/squarebattle.yaml:2: more than one YAML document`},
		},
		{
			name: "out of range from file names file and line",
			s:    scenario{files: file("seed: 4\narena:\n  size: 1\n")},
			is:   []error{ErrInvalid},
			want: []string{"ROOT/cwd/squarebattle.yaml:3: arena.size: must be between 2 and 2000 (got 1)"},
		},
		{
			name: "out of range from env",
			s:    scenario{files: file("arena:\n  size: 10\n"), env: []string{"SQUAREBATTLE_ARENA_SIZE=1"}},
			want: []string{"env SQUAREBATTLE_ARENA_SIZE: arena.size: must be between 2 and 2000 (got 1)"},
		},
		{
			name: "out of range from flag",
			s:    scenario{env: []string{"SQUAREBATTLE_ARENA_SIZE=10"}, args: []string{"--size=2001"}},
			want: []string{"flag --size: arena.size: must be between 2 and 2000 (got 2001)"},
		},
		{
			name: "several problems, one per line",
			s: scenario{
				files: file("arena:\n  sise: 3\n  wrap: 2\n"),
				env:   []string{"SQUAREBATTLE_TUI_FPS=x", "SQUAREBATTLE_NOPE=1"},
				args:  []string{"--memory=0"},
			},
			is: []error{ErrInvalid, ErrUnknownKey},
			want: []string{
				`ROOT/cwd/squarebattle.yaml:2: unknown key "arena.sise" (did you mean arena.size?)`,
				`ROOT/cwd/squarebattle.yaml:3: arena.wrap: must be true or false (got "2")`,
				`env: unknown variable SQUAREBATTLE_NOPE`,
				`env SQUAREBATTLE_TUI_FPS: tui.fps: must be an integer (got "x")`,
			},
		},
		{
			name: "several range problems",
			s:    scenario{files: file("tui:\n  fps: 0\n"), args: []string{"--memory=0"}},
			want: []string{
				"flag --memory: limits.memory_mib: must be between 1 and 16384 (got 0)",
				"ROOT/cwd/squarebattle.yaml:2: tui.fps: must be between 1 and 240 (got 0)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, root, err := tt.s.load(t)
			if err == nil {
				t.Fatalf("Load succeeded: %+v", c)
			}
			if !reflect.DeepEqual(c, Config{}) {
				t.Errorf("Config on error = %+v, want zero value", c)
			}
			for _, target := range tt.is {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = false", err, target)
				}
			}
			got := strings.ReplaceAll(err.Error(), root+string(filepath.Separator), "ROOT/")
			got = filepath.ToSlash(got)
			if want := strings.Join(tt.want, "\n"); got != want {
				t.Errorf("error:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestLoadTypedErrors checks the fields of the typed errors, not just text.
func TestLoadTypedErrors(t *testing.T) {
	_, _, _, err := scenario{env: []string{"SQUAREBATTLE_ARENA_SIZE=abc"}}.load(t)
	var fe *FieldError
	if !errors.As(err, &fe) {
		t.Fatalf("%v is not a *FieldError", err)
	}
	if fe.Key != "arena.size" || fe.Source != "env SQUAREBATTLE_ARENA_SIZE" || fe.Value != "abc" {
		t.Errorf("FieldError = %+v", *fe)
	}

	_, _, root, err := scenario{files: map[string]string{"cwd/squarebattle.yaml": "\narena:\n  sise: 3\n"}}.load(t)
	var ue *UnknownKeyError
	if !errors.As(err, &ue) {
		t.Fatalf("%v is not an *UnknownKeyError", err)
	}
	want := UnknownKeyError{Key: "arena.sise", Source: filepath.Join(root, "cwd", FileName), Line: 3, Suggestion: "arena.size"}
	if *ue != want {
		t.Errorf("UnknownKeyError = %+v, want %+v", *ue, want)
	}

	_, _, _, err = scenario{files: map[string]string{"cwd/squarebattle.yaml": "a: [\n"}}.load(t)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line == 0 {
		t.Fatalf("%v is not a *SyntaxError with a line", err)
	}
}

func TestLoadConfigIsDirectory(t *testing.T) {
	dir := t.TempDir()
	_, _, err := Load(LoadOptions{File: dir, UserDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("Load(dir) = %v", err)
	}
}

// TestLoadGameLayer: a rule mod's game.yaml sits over the defaults and
// under the file, the environment and the flags; its mistakes name it.
func TestLoadGameLayer(t *testing.T) {
	game := []byte("arena:\n  size: 40\n  wrap: false\nrules:\n  rounds: 500\n")
	dir := t.TempDir()
	file := filepath.Join(dir, "squarebattle.yaml")
	if err := os.WriteFile(file, []byte("rules:\n  rounds: 50\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		o       LoadOptions
		size    int
		rounds  int
		wrap    bool
		wantErr string
	}{
		{"game over defaults", LoadOptions{Game: game, GameFile: "paint/game.yaml", Dir: t.TempDir()}, 40, 500, false, ""},
		{"file over game", LoadOptions{Game: game, GameFile: "paint/game.yaml", File: file}, 40, 50, false, ""},
		{"env over game", LoadOptions{Game: game, GameFile: "paint/game.yaml", Dir: t.TempDir(), Environ: []string{"SQUAREBATTLE_ARENA_SIZE=30"}}, 30, 500, false, ""},
		{"a bad game key", LoadOptions{Game: []byte("arena:\n  sise: 4\n"), GameFile: "paint/game.yaml", Dir: t.TempDir()}, 0, 0, false, "paint/game.yaml:2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, ok := loadOrFail(t, c.o, c.wantErr)
			if !ok {
				return
			}
			if cfg.Arena.Size != c.size || cfg.Rules.Rounds != c.rounds || cfg.Arena.Wrap != c.wrap {
				t.Errorf("size %d rounds %d wrap %v", cfg.Arena.Size, cfg.Rules.Rounds, cfg.Arena.Wrap)
			}
		})
	}
}

// TestLoadOptions: a rule mod's options come from the file's options
// section and SQUAREBATTLE_OPTIONS_* variables (which win), as text for
// the game to check; malformed ones are named with their line.
func TestLoadOptions(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		f := filepath.Join(dir, "squarebattle.yaml")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	cases := []struct {
		name    string
		file    string
		env     []string
		want    map[string]string
		wantErr string
	}{
		{"file", "options:\n  growth: 2\n  start_length: 4\n", nil, map[string]string{"growth": "2", "start_length": "4"}, ""},
		{"env over file", "options:\n  growth: 2\n", []string{"SQUAREBATTLE_OPTIONS_GROWTH=5", "SQUAREBATTLE_OPTIONS_GAMES=3"}, map[string]string{"growth": "5", "games": "3"}, ""},
		{"none", "arena:\n  size: 10\n", nil, nil, ""},
		{"not a mapping", "options: 3\n", nil, nil, "squarebattle.yaml:1: options: must be a mapping"},
		{"a bad name", "options:\n  Growth: 2\n", nil, nil, "squarebattle.yaml:2: an option name is lower case"},
		{"a list value", "options:\n  growth: [1, 2]\n", nil, nil, "squarebattle.yaml:2: options.growth: must be a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, ok := loadOrFail(t, LoadOptions{File: write(c.file), Environ: c.env}, c.wantErr)
			if !ok {
				return
			}
			if len(cfg.Options) != len(c.want) || (len(c.want) > 0 && !reflect.DeepEqual(cfg.Options, c.want)) {
				t.Errorf("options %v, want %v", cfg.Options, c.want)
			}
		})
	}
}

// loadOrFail loads o and checks the error against wantErr ("" for none);
// ok says whether the test goes on to look at the configuration.
func loadOrFail(t *testing.T, o LoadOptions, wantErr string) (Config, bool) {
	t.Helper()
	cfg, _, err := Load(o)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("error %v, want %q", err, wantErr)
		}
		return cfg, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return cfg, true
}

// TestLoadLadderSections: a game.yaml's ladder section puts the game on
// the ladder; the same keys anywhere else are refused with where they came
// from (a user's file saying ladder.teams would put every rule mod on
// it); serve.ladder is SquareBattle's and nests under serve.
func TestLoadLadderSections(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	userLadder := write("user.yaml", "rules:\n  rounds: 50\nladder:\n  teams: 4\n")
	serveLadder := write("serve.yaml", "serve:\n  ladder:\n    teams: 6\n    games: paint\n    enabled: false\n")
	badServe := write("bad.yaml", "serve:\n  ladder:\n    teams: 1\n    tems: 3\n")
	game := []byte("ladder:\n  teams: 3\n  size: 40\n  rounds: 400\n")
	cases := []struct {
		name    string
		o       LoadOptions
		want    func(Config) bool
		wantErr []string
	}{
		{"in a game.yaml", LoadOptions{Game: game, GameFile: "paint/game.yaml", Dir: t.TempDir()},
			func(c Config) bool { return c.Ladder == GameLadder{Teams: 3, Size: 40, Rounds: 400} && c.Ladder.On() }, nil},
		{"not in a game.yaml: none", LoadOptions{Dir: t.TempDir()}, func(c Config) bool { return !c.Ladder.On() }, nil},
		{"in a user's file", LoadOptions{File: userLadder}, nil, []string{"ladder.teams", "user.yaml:4", "game.yaml"}},
		{"in the environment", LoadOptions{Dir: t.TempDir(), Environ: []string{"SQUAREBATTLE_LADDER_SIZE=9"}}, nil, []string{"ladder.size", "SQUAREBATTLE_LADDER_SIZE", "game.yaml"}},
		{"serve.ladder in a user's file", LoadOptions{File: serveLadder},
			func(c Config) bool {
				l := c.Serve.Ladder
				return l.Teams == 6 && !l.Enabled && len(l.GameNames()) == 1 && l.GameNames()[0] == "paint" && l.Rounds == 500
			}, nil},
		{"serve.ladder's mistakes", LoadOptions{File: badServe}, nil, []string{"serve.ladder.teams", "serve.ladder.tems", "bad.yaml"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, _, err := Load(c.o)
			if c.wantErr != nil {
				if err == nil || !errors.Is(err, ErrInvalid) && !strings.Contains(err.Error(), "unknown") {
					t.Fatalf("err = %v, want an error naming %v", err, c.wantErr)
				}
				for _, w := range c.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not name %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.want(cfg) {
				t.Errorf("got ladder %+v, serve.ladder %+v", cfg.Ladder, cfg.Serve.Ladder)
			}
		})
	}
}
