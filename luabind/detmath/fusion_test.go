package detmath

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// fmaInstruction matches the fused multiply-add instructions of arm64
// (FMADDD, FMSUBD, FNMADDD, FNMSUBD) and amd64/v3 (VFMADD231SD and kin).
var fmaInstruction = regexp.MustCompile(`\t(FN?M(ADD|SUB)D|VFN?M(ADD|SUB)[0-9]*SD)\t`)

// TestNoFusedOps compiles this package for the targets whose compilers
// fuse (arm64, amd64 at GOAMD64=v3) and fails on any FMA instruction in
// the output: the float64(...) conversions must leave the compiler
// nothing to fuse. A control package holding x*y + z proves the check
// sees fusion when there is some. The goldens catch a fused rounding only
// when one of their inputs happens to change; this test catches it in
// any line of the code.
func TestNoFusedOps(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the package twice (skipped with -short)")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	control := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(control, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module control\n")
	write("control.go", "package control\n\nfunc F(x, y, z float64) float64 { return x*y + z }\n")
	self, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []struct{ name, goarch, goamd64 string }{
		{"arm64", "arm64", ""},
		{"amd64/v3", "amd64", "v3"},
	} {
		compile := func(dir string) []string {
			cmd := exec.Command(goCmd, "build", "-gcflags=-S", "-o", os.DevNull, ".")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+target.goarch, "GOAMD64="+target.goamd64, "CGO_ENABLED=0", "GOFLAGS=")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: go build in %s: %v\n%s", target.name, dir, err, out)
			}
			return fmaInstruction.FindAllString(string(out), -1)
		}
		if len(compile(control)) == 0 {
			t.Fatalf("%s: the control x*y + z compiled without an FMA: the check cannot see fusion", target.name)
		}
		if found := compile(self); len(found) > 0 {
			t.Errorf("%s: detmath compiles to %d fused instructions %v: wrap the product in float64(...)", target.name, len(found), found)
		}
	}
}
