package scripts_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/scripts"
)

// TestStrayPlayersNotEmbedded copies this folder, as it is in the working
// tree, into a module of its own, adds the players a coder would save here
// (one of SquareBattle's, one in a rule mod's folder, a game folder of their
// own) and asks the go command what the package embeds. It must be exactly
// the shipped set this test binary holds: a stray player never reaches the
// binary, so no test that plays the shipped players can see it.
func TestStrayPlayersNotEmbedded(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	mod := t.TempDir()
	dst := filepath.Join(mod, "scripts")
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, path)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	strays := []string{"hunter.lua", "paint/mine.lua", "snake/slither.lua", "orbs/mine.lua", "mygame/rules.lua", "mygame/game.yaml"}
	for _, s := range strays {
		p := filepath.Join(dst, s)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("return {name = \"Stray\", run = function() return WAIT end}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module github.com/squarebattle/squarebattle\n\ngo 1.21\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "list", "-f", `{{join .EmbedFiles "\n"}}`, "./scripts")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	got := strings.Fields(string(out))
	slices.Sort(got)

	var shipped []string
	err = fs.WalkDir(scripts.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			shipped = append(shipped, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(shipped)
	if !slices.Equal(got, shipped) {
		t.Errorf("with stray players beside them, the package embeds\n%s\nwant the shipped set\n%s", strings.Join(got, " "), strings.Join(shipped, " "))
	}
	for _, s := range strays {
		if slices.Contains(got, s) {
			t.Errorf("the stray player %s is embedded", s)
		}
	}
	if len(shipped) < 20 {
		t.Errorf("only %d shipped files embedded: %v", len(shipped), shipped)
	}
}

// TestNoTestReadsWorkingScripts: no test anywhere in the module reads the
// shipped players from this folder on disk (by a path that climbs to it):
// they read scripts.FS, or a copy in their own testdata. Only this
// package's stray test looks at the folder, to prove the point above.
func TestNoTestReadsWorkingScripts(t *testing.T) {
	climb := regexp.MustCompile(`\.\./scripts\b|"\.\.",\s*"scripts"`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // a file another test (or package) made and removed meanwhile
		}
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "stray_test.go" {
			return nil
		}
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if climb.MatchString(line) {
				t.Errorf("%s:%d reads the working tree's scripts folder: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
