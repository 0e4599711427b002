package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine/replay"
)

// chatty prints and fails on purpose, saying a secret each time.
const chatty = `local n = 0
return {
  name = "Chatty",
  run = function(self)
    n = n + 1
    print("my secret plan " .. n)
    if n % 5 == 0 then error("my secret is " .. n) end
    return WAIT
  end,
}
`

// TestVerifyWithheld: a replay copy that withholds teams' print logs and
// problem messages (replay.Withhold, what serve hands out) still verifies
// identical, and holds none of the withheld words; the same copy without
// its header's withheld would not verify, so verify's leniency is the
// header's doing, not blindness.
func TestVerifyWithheld(t *testing.T) {
	dir := diskCopy(t)
	if err := os.WriteFile(filepath.Join(dir, "chatty.lua"), []byte(chatty), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "battle.sbr")
	code, _, errOut := runMain(t, "run", "--scripts", dir, "--record", file, "--seed", "5", "--size", "24", "--rounds", "60", "chatty", "wanderer", "chatty")
	if code != 0 {
		t.Fatalf("run --record: exit %d: %s", code, errOut)
	}
	orig, _ := os.ReadFile(file)
	if !bytes.Contains(unzip(t, orig), []byte("my secret")) {
		t.Fatal("the recording has no secret to withhold: the test proves nothing")
	}
	tests := []struct {
		name      string
		hide      []int
		unmark    bool // drop the header's withheld from the copy
		secret    bool // the copy still says "my secret"
		identical bool
	}{
		{"nothing withheld", nil, false, true, true},
		{"one chatty team", []int{0}, false, true, true},
		{"both chatty teams", []int{0, 2}, false, false, true},
		{"every team", []int{0, 1, 2}, false, false, true},
		{"withheld but not said so", []int{0, 2}, true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if _, err := replay.Withhold(&out, bytes.NewReader(orig), "battle.sbr", func(*replay.Header) []int { return tt.hide }); err != nil {
				t.Fatal(err)
			}
			text := unzip(t, out.Bytes())
			if tt.unmark {
				text = bytes.Replace(text, []byte(`,"withheld":[0,2]`), nil, 1)
			}
			if got := bytes.Contains(text, []byte("my secret")); got != tt.secret {
				t.Fatalf("the copy says a secret: %v, want %v", got, tt.secret)
			}
			copyFile := filepath.Join(t.TempDir(), "copy.sbr")
			os.WriteFile(copyFile, text, 0o644)
			cfg := config.Default()
			cfg.Scripts = dir
			var said bytes.Buffer
			err := verifyReplay(cfg, copyFile, &said)
			if ok := err == nil && strings.HasPrefix(said.String(), "identical: "); ok != tt.identical {
				t.Fatalf("verify: %v %q; want identical %v", err, said.String(), tt.identical)
			}
			if !tt.identical && !strings.Contains(err.Error(), "script problems differ") {
				t.Fatalf("verify: %v, want the problems to differ", err)
			}
		})
	}
}

func unzip(t *testing.T, data []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return text
}
