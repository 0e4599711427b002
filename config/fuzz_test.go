package config

import (
	"reflect"
	"testing"
)

// FuzzLoad: any file text is either refused with errors naming the file,
// or gives a configuration that validates and survives a YAML round trip.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("arena:\n  size: 64\n  wrap: false\n"))
	f.Add([]byte("rules:\n  rounds: 10\noptions:\n  growth: 2\n"))
	f.Add(DefaultYAML())
	f.Add([]byte("arena: [1, 2]\n"))
	f.Add([]byte("limits:\n  instructions: 1e9\n"))
	f.Add([]byte("a: &x 1\nb: *x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		cfg, _, err := Load(LoadOptions{Game: data, GameFile: "fuzz.yaml", Dir: dir, UserDir: dir})
		if err != nil {
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("a loaded configuration does not validate: %v", err)
		}
		again, _, err := Load(LoadOptions{Game: cfg.YAML(), GameFile: "again.yaml", Dir: dir, UserDir: dir})
		if err != nil {
			t.Fatalf("its YAML does not load: %v\n%s", err, cfg.YAML())
		}
		if !reflect.DeepEqual(cfg, again) {
			t.Fatalf("round trip changed it:\n%+v\n%+v", cfg, again)
		}
	})
}
