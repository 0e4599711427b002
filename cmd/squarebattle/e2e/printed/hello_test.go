//go:build unix

package printed

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// helloBot writes the hello it gets to the file named by its argument,
// says ready, then lets every square wait and every call go unanswered
// until the end.
const helloBot = `import json, sys
out = sys.argv[1]
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        open(out, "w").write(line)
        hello = m
        print(json.dumps({"type": "ready", "name": "Hello Bot"}), flush=True)
    elif m["type"] == "round":
        a = {"type": "actions", "round": m["round"]}
        if hello["kind"] == "calls":
            a["batch"], a["answers"] = m["batch"], []
        else:
            a["actions"] = []
        print(json.dumps(a), flush=True)
    elif m["type"] == "end":
        break
`

// docHellos are the hello messages docs/bots.md shows, in order: a JSON
// block that is one, and a transcript's engine line ("> ") that is one.
func docHellos(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "docs", "bots.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var block []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if in && len(block) > 0 && strings.HasPrefix(block[0], `{"type":"hello"`) {
				out = append(out, strings.Join(block, "\n"))
			}
			in, block = !in, nil
			continue
		}
		if !in {
			continue
		}
		if rest, ok := strings.CutPrefix(line, `> {"type":"hello"`); ok {
			out = append(out, `{"type":"hello"`+rest)
			continue
		}
		block = append(block, line)
	}
	return out
}

// TestDocHellos: every hello docs/bots.md shows is, field for field, the
// hello the program sends in the battle the text says it comes from (the
// defaults of the configuration and of the game: snake's 60×60 board and
// snakes 5 long; the classes a team may play, no rules among them).
func TestDocHellos(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		harness.SkipOrRequire(t, "the hello bot needs python3 on PATH (apt-get install python3)")
	}
	// Each example's battle, in the order the text shows them: the
	// scripts folder (files copied from the shipped players, and .bot
	// files naming the hello bot), a configuration, the command line.
	battles := []struct {
		name   string
		files  []string // from the shipped players and games
		bots   []string // .bot files of the hello bot
		hello  string   // the one of bots whose hello the text shows ("": the only one)
		config string   // squarebattle.yaml, "" for none
		args   []string
	}{
		{name: "hello", files: []string{"explorer.lua"}, bots: []string{"mybot.bot"},
			args: []string{"run", "--seed", "42", "explorer", "mybot"}},
		{name: "protocol 2 transcript", bots: []string{"one.bot", "two.bot"}, hello: "two.bot", config: "rules:\n  replicate_rounds: 2\n",
			args: []string{"run", "--seed", "11", "--size", "6", "--rounds", "40", "one", "two"}},
		{name: "transcript", files: []string{"explorer.lua"}, bots: []string{"refbot.bot"}, config: "rules:\n  replicate_rounds: 4\n",
			args: []string{"run", "--seed", "7", "--size", "6", "--rounds", "100", "explorer", "refbot"}},
		{name: "snake transcript", files: []string{"snake/rules.lua", "snake/game.yaml", "snake/hungry.lua"}, bots: []string{"snake/mysnake.bot"},
			args: []string{"run", "--game", "snake", "--seed", "3", "mysnake", "hungry"}},
	}
	docs := docHellos(t)
	if len(docs) != len(battles) {
		t.Fatalf("docs/bots.md shows %d hellos, the test knows the battles of %d: add the new one's battle\n%s", len(docs), len(battles), strings.Join(docs, "\n"))
	}
	shipped := harness.ShippedCopy(t)
	for i, b := range battles {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			scripts := filepath.Join(dir, "scripts")
			script := filepath.Join(dir, "hellobot.py")
			if err := os.WriteFile(script, []byte(helloBot), 0o644); err != nil {
				t.Fatal(err)
			}
			hello := filepath.Join(dir, "hello.json")
			for _, f := range b.files {
				data, err := os.ReadFile(filepath.Join(shipped, f))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(scripts, f), string(data))
			}
			for _, f := range b.bots {
				keep := hello
				if b.hello != "" && f != b.hello {
					keep = filepath.Join(dir, f+".hello.json") // another bot's: not the one shown
				}
				write(t, filepath.Join(scripts, f), "command: python3 "+script+" "+keep+"\n")
			}
			args := append([]string{b.args[0], "--scripts", scripts}, b.args[1:]...)
			if b.config != "" {
				cfg := filepath.Join(dir, "squarebattle.yaml")
				write(t, cfg, b.config)
				args = append(args, "--config", cfg)
			}
			if code, out, errOut := harness.Exec(t, args...); code != 0 {
				t.Fatalf("squarebattle %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
			}
			real, err := os.ReadFile(hello)
			if err != nil {
				t.Fatalf("the bot got no hello: %v", err)
			}
			var got, want map[string]any
			if err := json.Unmarshal(real, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(docs[i]), &want); err != nil {
				t.Fatalf("docs/bots.md's hello %d is not JSON: %v\n%s", i+1, err, docs[i])
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("docs/bots.md's hello %d differs from the real one:\n doc: %s\nreal: %s", i+1, strings.Join(strings.Fields(docs[i]), ""), strings.TrimSpace(string(real)))
			}
		})
	}
}

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
