package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// strangerFiles are files a stranger could leave in a scripts folder to
// make every process that reads the folder work: each is refused when the
// folder is read, before it is compiled (luabind/compilecost.go).
func strangerFiles() map[string]string {
	lines := func(n int, line func(int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(line(i))
			b.WriteByte('\n')
		}
		return b.String()
	}
	return map[string]string{
		"numbers.lua": "local t = {\n" + lines(30000, func(i int) string { return fmt.Sprintf("%d.5,", i) }) + "}\nreturn {name='Numbers', run=function() return WAIT end}",
		"globals.lua": lines(15000, func(i int) string { return fmt.Sprintf("g%d = %d", i, i) }) + "return {name='Globals', run=function() return WAIT end}",
		"fields.lua":  "local t = {}\n" + lines(20000, func(i int) string { return fmt.Sprintf("t.f%d = 1", i) }) + "return {name='Fields', run=function() return WAIT end}",
	}
}

// TestStrangerFilesCostNothing: files nobody fields, however costly to
// compile they were made, change nothing in a battle of others: in process
// and behind the wall the battle is the one the shipped players play
// alone, byte for byte, with no timeout; and check names each as refused.
func TestStrangerFilesCostNothing(t *testing.T) {
	plain, crowded := t.TempDir(), t.TempDir()
	for _, d := range []string{plain, crowded} {
		copyShippedFS(t, d)
	}
	for name, src := range strangerFiles() {
		if err := os.WriteFile(filepath.Join(crowded, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want string
	for _, dir := range []string{plain, crowded} {
		for _, iso := range []string{"none", "process"} {
			code, out, errOut := runMain(t, "run", "--json", "--seed", "4", "--size", "24", "--rounds", "150", "--isolation", iso, "--scripts", dir, "explorer", "wanderer")
			if code != 0 {
				t.Fatalf("%s %s: exit %d: %s", filepath.Base(dir), iso, code, errOut)
			}
			if strings.Contains(out, `"timeouts": 1`) || strings.Contains(out, "instruction budget") {
				t.Errorf("%s: a timeout in a battle of the shipped players:\n%s", iso, out)
			}
			if want == "" {
				want = out
			} else if out != want {
				t.Errorf("with stranger files beside them, under --isolation %s, the battle differs:\n%s\nwant\n%s", iso, out, want)
			}
		}
	}
	for name := range strangerFiles() {
		code, out, errOut := runMain(t, "check", "--scripts", crowded, filepath.Join(crowded, name))
		if code == 0 || !strings.Contains(out+errOut, "too long to compile") {
			t.Errorf("check %s: exit %d, output:\n%s%s", name, code, out, errOut)
		}
	}
}
