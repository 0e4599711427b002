package crossarch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// crossArchEnv, when set (CI sets it: .ci/run), makes a missing qemu a
// failure instead of a skip.
const crossArchEnv = "CROSS_ARCH_REQUIRED"

// longEnv runs the tests at all. They compile the program and the math
// tests for arm64 and amd64/v3 and run them under qemu: minutes of CPU on a
// cold build cache, too long for a plain go test on a loaded machine, so
// only .ci/run (which sets it, with a -timeout of their own) runs them.
const longEnv = "LONG_TESTS"

// build is one way of compiling the program and the command prefix that
// runs what it makes.
type build struct {
	name   string
	env    []string // GOARCH, GOAMD64
	runner []string // emulator and its flags, or nothing for native
}

// crossBuilds returns the builds the test compares: native amd64, arm64
// under qemu-aarch64-static, amd64 at GOAMD64=v3 (natively when the CPU
// has AVX2 and FMA, else under qemu-x86_64-static -cpu max). It skips the
// test, or fails it when crossArchEnv is set, when an emulator is missing.
func crossBuilds(t *testing.T) []build {
	t.Helper()
	if os.Getenv(longEnv) == "" {
		t.Skipf("cross-architecture builds take minutes on a cold cache: set %s=1 to run them (.ci/run does)", longEnv)
	}
	need := func(tool string) string {
		p, err := exec.LookPath(tool)
		if err == nil {
			return p
		}
		if os.Getenv(crossArchEnv) != "" {
			t.Fatalf("%s is set but %s is not on PATH (apt-get install qemu-user-static)", crossArchEnv, tool)
		}
		t.Skipf("cross-architecture check skipped: %s not found (apt-get install qemu-user-static, or set %s=1 to make this a failure)", tool, crossArchEnv)
		return ""
	}
	if os.Getenv("GOARCH") != "" && os.Getenv("GOARCH") != "amd64" {
		t.Skip("compares builds against a native amd64 one")
	}
	out, err := exec.Command("go", "env", "GOHOSTARCH").Output()
	if err != nil || strings.TrimSpace(string(out)) != "amd64" {
		t.Skip("compares builds against a native amd64 one; this host is not amd64")
	}
	arm := need("qemu-aarch64-static")
	builds := []build{
		{"amd64", []string{"GOARCH=amd64", "GOAMD64=v1"}, nil},
		{"arm64", []string{"GOARCH=arm64"}, []string{arm}},
	}
	cpu, _ := os.ReadFile("/proc/cpuinfo")
	flags := " " + string(cpu) + " "
	if strings.Contains(flags, " avx2 ") && strings.Contains(flags, " fma ") {
		builds = append(builds, build{"amd64-v3", []string{"GOARCH=amd64", "GOAMD64=v3"}, nil})
	} else {
		builds = append(builds, build{"amd64-v3", []string{"GOARCH=amd64", "GOAMD64=v3"}, []string{need("qemu-x86_64-static"), "-cpu", "max"}})
	}
	return builds
}

// goBuild runs go with args in dir for target b.
func goBuild(t *testing.T, b build, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GOOS=linux", "CGO_ENABLED=0", "GOFLAGS="}, b.env...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: go %s: %v\n%s", b.name, strings.Join(args, " "), err, out)
	}
}

// TestCrossArchBattles builds squarebattle three ways and plays the same
// battles with each: a player whose moves hang on the last bits of the
// math library, the shipped players, and the orbs rule mod. The JSON and
// the replay must be byte-identical across the builds and across
// --workers 1 and 2.
func TestCrossArchBattles(t *testing.T) {
	builds := crossBuilds(t)
	bins := t.TempDir()
	scripts := crossArchScripts(t)
	battles := []struct {
		name string
		args []string
	}{
		{"mathy", []string{"--size", "20", "--rounds", "150", "mathy", "mathy", "explorer", "wanderer"}},
		{"shipped", []string{"--size", "20", "--rounds", "80"}},
		{"orbs", []string{"--game", "orbs", "--size", "30", "--rounds", "12", "explorer", "spreader"}},
		// % and ^ are opcodes: the counted loop computes them (arith.go).
		{"mathops", []string{"--size", "20", "--rounds", "150", "mathops", "mathy", "explorer"}},
	}
	type result struct{ json, replay []byte }
	want := map[string]result{}
	for _, b := range builds {
		bin := filepath.Join(bins, "squarebattle-"+b.name)
		goBuild(t, b, ".", "build", "-o", bin, harness.ProgramPackage)
		for _, battle := range battles {
			for _, workers := range []string{"1", "2"} {
				if b.runner != nil && workers == "1" {
					continue // emulated runs are slow: one worker count is enough there
				}
				work, env := harness.Isolated(t)
				record := filepath.Join(work, "replay")
				args := append(append([]string{}, b.runner...), bin, "run", "--json", "--seed", "5", "--workers", workers, "--record", record, "--scripts", scripts)
				if b.runner != nil {
					// A binary run through an emulator by hand cannot
					// re-execute itself as a worker (the kernel does not
					// know to put the emulator in front): in-process teams
					// there, which play the same battle.
					args = append(args, "--isolation", "none")
				}
				args = append(args, battle.args...)
				cmd := exec.Command(args[0], args[1:]...)
				cmd.Dir, cmd.Env = work, env
				var stderr bytes.Buffer
				cmd.Stderr = &stderr
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s %s --workers %s: %v\n%s", b.name, battle.name, workers, err, stderr.Bytes())
				}
				replay, err := os.ReadFile(record)
				if err != nil {
					t.Fatal(err)
				}
				got := result{out, replay}
				first, ok := want[battle.name]
				if !ok {
					want[battle.name] = got
					continue
				}
				if !bytes.Equal(got.json, first.json) {
					t.Errorf("%s: %s build with --workers %s prints different JSON from amd64 --workers 1:\n%s\nvs\n%s", battle.name, b.name, workers, got.json, first.json)
				}
				if !bytes.Equal(got.replay, first.replay) {
					t.Errorf("%s: %s build with --workers %s records a different replay from amd64 --workers 1", battle.name, b.name, workers)
				}
			}
		}
	}
}

// crossArchScripts is a scripts folder holding the shipped players, the
// orbs mod and the players of testdata/crossarch.
func crossArchScripts(t *testing.T) string {
	t.Helper()
	dir := harness.ShippedCopy(t)
	files, err := filepath.Glob("testdata/crossarch/*.lua")
	if err != nil || len(files) == 0 {
		t.Fatal("no players in testdata/crossarch")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCrossArchDetmath compiles luabind/detmath's tests for arm64 and for
// amd64/v3 and runs them (under qemu where needed) against the golden bit
// patterns written on amd64.
func TestCrossArchDetmath(t *testing.T) {
	builds := crossBuilds(t)
	pkg, err := filepath.Abs("../../../../luabind/detmath")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range builds[1:] {
		bin := filepath.Join(t.TempDir(), "detmath.test")
		goBuild(t, b, pkg, "test", "-c", "-o", bin, ".")
		args := append(append([]string{}, b.runner...), bin, "-test.short", "-test.run", "Golden|Special|NearTrue|NaN|Modf|Agrees")
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = pkg // the goldens are read from testdata/
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: detmath tests: %v\n%s", b.name, err, out)
		}
	}
}
