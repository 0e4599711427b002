package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// LoadOptions tells Load where to look. The zero value loads defaults plus
// squarebattle.yaml from the current directory or the user config dir.
type LoadOptions struct {
	// Game is a rule mod's game.yaml: the game's own defaults, layered
	// over the built-in ones and under the file, the environment and the
	// flags. GameFile names it in errors. nil = SquareBattle.
	Game     []byte
	GameFile string
	// File is an explicit configuration file (--config). It must exist;
	// when set, Dir and UserDir are not searched.
	File string
	// Flags holds the parsed command line. Only flags that were set
	// explicitly (Changed) override other layers. nil = no flags.
	Flags *pflag.FlagSet
	// FlagKeys maps a flag name to the configuration key it sets, e.g.
	// "size" -> "arena.size". nil means DefaultFlagKeys(). Names that are
	// not defined in Flags are skipped.
	FlagKeys map[string]string
	// Environ is the environment in os.Environ() form. nil = no variables;
	// Load never reads the process environment by itself.
	Environ []string
	// Dir is searched first for squarebattle.yaml (then .yml); "" = ".".
	Dir string
	// UserDir is searched second; "" = os.UserConfigDir()/squarebattle.
	UserDir string
}

// Load builds the configuration from defaults, one configuration file,
// SQUAREBATTLE_* variables from o.Environ and the changed flags, in that
// order of increasing priority, then validates it.
//
// The file is o.File if set, else the first of squarebattle.yaml and
// squarebattle.yml found in o.Dir, then in o.UserDir. The second result is
// the path of the file used ("" if none); it is returned on error too.
//
// Problems with the configuration itself (bad values, unknown keys or
// variables, malformed YAML) match ErrInvalid; several of them come back
// together through errors.Join, one per line. A missing o.File or an
// unreadable file gives an I/O error instead. On error the Config is the
// zero value.
//
// Load does not interpret special values: Seed 0, Scripts "" and Workers 0
// are returned as they are for the caller to resolve.
func Load(o LoadOptions) (Config, string, error) {
	path, err := findFile(o)
	if err != nil {
		return Config{}, path, err
	}

	v := viper.New()
	def := Default()
	for i := range keys {
		v.SetDefault(keys[i].name, keys[i].get(&def))
	}
	origin := map[string]sourced{}
	var errs []error

	// Layer 0: the game's defaults.
	if o.Game != nil {
		vals, gerrs := parseFile(o.GameFile, o.Game)
		errs = append(errs, gerrs...)
		if err := mergeLayer(v, vals, origin); err != nil {
			return Config{}, path, err
		}
	}

	// Layer 1: the file.
	if path != "" {
		data, err := readFile(path)
		if err != nil {
			return Config{}, path, fileError(path, err)
		}
		vals, ferrs := parseFile(path, data)
		errs = append(errs, ferrs...)
		errs = append(errs, notGameOnly(vals)...)
		if err := mergeLayer(v, vals, origin); err != nil {
			return Config{}, path, err
		}
	}

	// Layer 2: the environment. viper can only read the real process
	// environment, so the variables are parsed here and merged on top of
	// the file in viper's config layer.
	vals, eerrs := parseEnv(o.Environ)
	errs = append(errs, eerrs...)
	errs = append(errs, notGameOnly(vals)...)
	if err := mergeLayer(v, vals, origin); err != nil {
		return Config{}, path, err
	}

	// Layer 3: flags, bound through viper's flag layer.
	errs = append(errs, bindFlags(v, o, origin)...)

	if len(errs) > 0 {
		return Config{}, path, errors.Join(errs...)
	}

	var c Config
	if err := v.Unmarshal(&c); err != nil {
		// Every value was checked above, so this means a bug here.
		return Config{}, path, fmt.Errorf("config: decoding merged settings: %w", err)
	}

	fes := c.check()
	for _, fe := range fes {
		if o, ok := origin[fe.Key]; ok {
			fe.Source, fe.Line = o.source, o.line
		}
	}
	if err := joinFieldErrors(fes); err != nil {
		return Config{}, path, err
	}
	return c, path, nil
}

// findFile picks the configuration file; "" means none.
func findFile(o LoadOptions) (string, error) {
	if o.File != "" {
		st, err := os.Stat(o.File)
		if err != nil {
			return o.File, fileError(o.File, err)
		}
		if st.IsDir() {
			return o.File, &FileError{Path: o.File, Err: errors.New("is a directory")}
		}
		return o.File, nil
	}
	dirs := []string{o.Dir}
	if dirs[0] == "" {
		dirs[0] = "."
	}
	if o.UserDir != "" {
		dirs = append(dirs, o.UserDir)
	} else if ucd, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(ucd, "squarebattle"))
	}
	for _, dir := range dirs {
		for _, name := range []string{FileName, altFileName} {
			p := filepath.Join(dir, name)
			st, err := os.Stat(p)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return p, fileError(p, err)
			}
			if !st.IsDir() {
				return p, nil
			}
		}
	}
	return "", nil
}

// MaxFileBytes bounds a configuration file: it is read whole, and a
// --config naming a device or a huge file must not exhaust memory.
const MaxFileBytes = 1 << 20

// readFile reads a configuration file of at most MaxFileBytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err == nil && len(data) > MaxFileBytes {
		err = fmt.Errorf("larger than %d bytes", MaxFileBytes)
	}
	return data, err
}

// ErrFile is matched by *FileError.
var ErrFile = errors.New("configuration file unreadable")

// FileError is a configuration file that cannot be read: missing, a
// folder, not readable, too large.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return fmt.Sprintf("config file %s: %v", e.Path, e.Err) }

// Unwrap makes errors.Is see the cause (e.g. fs.ErrNotExist) and ErrFile.
func (e *FileError) Unwrap() []error { return []error{e.Err, ErrFile} }

// fileError words an I/O error on the configuration file.
func fileError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &FileError{Path: path, Err: err}
}

// mergeLayer hands one layer of values to viper and records their origin.
func mergeLayer(v *viper.Viper, vals map[string]sourced, origin map[string]sourced) error {
	if len(vals) == 0 {
		return nil
	}
	tree := map[string]any{}
	for key, sv := range vals {
		m := tree
		parts := strings.Split(key, ".")
		for _, part := range parts[:len(parts)-1] {
			sub, ok := m[part].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[part] = sub
			}
			m = sub
		}
		m[parts[len(parts)-1]] = sv.value
		origin[key] = sv
	}
	return v.MergeConfigMap(tree)
}

// parseEnv picks the SQUAREBATTLE_* entries out of environ. Empty values
// count as unset (viper's convention). When a name repeats, the first
// entry wins, as with os.Getenv. Errors come sorted by variable name.
func parseEnv(environ []string) (map[string]sourced, []error) {
	byEnv := map[string]*keySpec{}
	for i := range keys {
		byEnv[keys[i].env()] = &keys[i]
	}
	vals := map[string]sourced{}
	seen := map[string]bool{}
	var names []string
	raw := map[string]string{}
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(name, EnvPrefix) || seen[name] {
			continue
		}
		seen[name] = true
		names = append(names, name)
		raw[name] = value
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		k := byEnv[name]
		if opt, ok := strings.CutPrefix(name, EnvPrefix+"OPTIONS_"); ok && k == nil {
			if raw[name] != "" {
				vals[OptionsSection+"."+strings.ToLower(opt)] = sourced{value: raw[name], source: "env " + name}
			}
			continue
		}
		if k == nil {
			errs = append(errs, &UnknownKeyError{Key: name, Source: "env", Suggestion: suggestEnv(name)})
			continue
		}
		if raw[name] == "" {
			continue
		}
		src := "env " + name
		val, reason := k.parseText(raw[name])
		if reason != "" {
			errs = append(errs, &FieldError{Key: k.name, Value: raw[name], Reason: reason, Source: src})
			continue
		}
		vals[k.name] = sourced{value: val, source: src}
	}
	return vals, errs
}

// bindFlags checks every changed flag listed in the flag mapping and binds
// it to its key in viper's flag layer. Errors come sorted by flag name.
func bindFlags(v *viper.Viper, o LoadOptions, origin map[string]sourced) []error {
	if o.Flags == nil {
		return nil
	}
	fk := o.FlagKeys
	if fk == nil {
		fk = DefaultFlagKeys()
	}
	names := make([]string, 0, len(fk))
	for name := range fk {
		names = append(names, name)
	}
	sort.Strings(names)

	var errs []error
	setBy := map[string]string{}
	for _, name := range names {
		f := o.Flags.Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		src := "flag --" + name
		key := fk[name]
		k := lookupKey(key)
		if k == nil {
			errs = append(errs, &UnknownKeyError{Key: key, Source: src, Suggestion: suggestKey(key)})
			continue
		}
		if other, dup := setBy[key]; dup {
			errs = append(errs, &FieldError{Key: key, Source: src,
				Reason: "is also set by flag --" + other + "; give only one of them"})
			continue
		}
		setBy[key] = name
		text := f.Value.String()
		val, reason := k.parseText(text)
		if reason != "" {
			errs = append(errs, &FieldError{Key: key, Value: text, Reason: reason, Source: src})
			continue
		}
		// Bind a normalised copy so viper sees exactly the checked value.
		if err := v.BindFlagValue(key, checkedFlag{name: name, value: format(val)}); err != nil {
			errs = append(errs, err)
			continue
		}
		origin[key] = sourced{value: val, source: src}
	}
	return errs
}

// checkedFlag is a viper.FlagValue carrying a flag value already checked
// and rendered in canonical form.
type checkedFlag struct{ name, value string }

func (f checkedFlag) HasChanged() bool    { return true }
func (f checkedFlag) Name() string        { return f.name }
func (f checkedFlag) ValueString() string { return f.value }
func (f checkedFlag) ValueType() string   { return "string" }
