//go:build unix

package printed

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// repo is the module's root, from this package's folder.
const repo = "../../../.."

// command is one command line a text prints, where it prints it.
type command struct {
	where string // file:line, or what printed it
	line  string
}

// prefixes start the command lines the tests run. `go run
// ./cmd/squarebattle` is run as the installed squarebattle (the README
// says the two are the same): compiling the program again for every line
// would only measure the compiler.
var prefixes = []string{"squarebattle ", "go run ./cmd/squarebattle"}

// setup are the other commands of a text's shell blocks that prepare what
// its squarebattle lines need (a copy, a folder, a bot built, a cd).
var setup = regexp.MustCompile(`^(cp|mkdir|cd|go build) [^;&|]*$`)

// labels a text puts before a command on its line.
var labels = regexp.MustCompile(`^(--\s*)?(\d+\.\s*)?(Try it:|Check it:|Watch it:)?\s*`)

// skipped are command lines that are not run, each with its reason. Keep
// it short: everything else a text prints must work as printed.
var skipped = map[string]string{
	"squarebattle serve":                "a server that runs until stopped, on a fixed port: TestServeOpenSSH (e2e/arena) runs it on a free one",
	"squarebattle serve --listen :2222": "listens on every interface; tests listen on loopback only",
	"squarebattle connect alice@arena.example:2222 mybot -- python3 docs/bots/python/squares.py": "connects to an arena at a placeholder address: TestRemoteBotsOpenSSH (e2e/arena) connects a kit to a real one",
}

// extract returns the command lines of a text: in Markdown, those of its
// code blocks (shell blocks: setup lines too); elsewhere (a starter file,
// a program's output), every line that is a squarebattle command after an
// optional comment mark and label.
func extract(name, text string, markdown bool) []command {
	var out []command
	inBlock, shellBlock := !markdown, !markdown
	cont := false // the line before ended in a backslash
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		trimmed := strings.TrimSpace(raw)
		if markdown && strings.HasPrefix(trimmed, "```") {
			if inBlock {
				inBlock = false
			} else {
				inBlock = true
				lang := strings.TrimPrefix(trimmed, "```")
				shellBlock = lang == "" || lang == "sh" || lang == "shell" || lang == "console"
			}
			continue
		}
		if !inBlock || !shellBlock {
			continue
		}
		wasCont := cont
		cont = strings.HasSuffix(trimmed, `\`)
		if wasCont {
			continue
		}
		line := strings.TrimPrefix(trimmed, "$ ")
		if !markdown {
			line = labels.ReplaceAllString(line, "")
		}
		if strings.HasSuffix(line, `\`) {
			continue // a command continued on the next line is a description, not one to type
		}
		isCmd := false
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) || line == strings.TrimSpace(p) {
				isCmd = true
			}
		}
		if !isCmd && !(markdown && setup.MatchString(line)) {
			continue
		}
		out = append(out, command{where: fmt.Sprintf("%s:%d", name, n), line: stripComment(line)})
	}
	return out
}

// stripComment cuts a trailing "# comment" or "   (comment)" off a line.
func stripComment(line string) string {
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case (c == '#' || c == '(') && i > 1 && line[i-1] == ' ' && line[i-2] == ' ':
			return strings.TrimSpace(line[:i])
		}
	}
	return strings.TrimSpace(line)
}

// template reports whether a line is a command's syntax rather than a
// command: it holds placeholders.
func template(line string) bool {
	for _, w := range []string{"[", "FILE", "NAME", "PLAYER", "HOST", "ADDR", "COMMAND", "…", "...", "|"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// session runs command lines in one shell, in order, as a person would.
type session struct {
	t    *testing.T
	sh   *harness.Shell
	work string
	n    int
}

// boundedRounds is the round limit of the battles the printed commands
// play: every battle of a session's commands here, tournaments and rule
// mods' battles in TestPrintedCommands (SQUAREBATTLE_RULES_ROUNDS in the
// environment, as a user's could say). As printed they cost minutes: a
// kit's snake bot against Hungry plays thousands of rounds, each a round
// trip to the bot process (15 to 35 s a command), a paint tournament
// hundreds of battles; that only measures their speed. How long a battle
// lasts changes neither the arguments a command accepts nor its exit
// status; the kits' tests (e2e/kits) play their bots' battles to the end.
const boundedRounds = "20"

// newSession starts a shell in a fresh folder holding the shipped players
// and games in scripts/ and the bot kits in docs/bots/, as a clone of the
// repository does, with the go command's caches of the test's own
// environment (so a kit builds without compiling the standard library),
// and battles bounded to boundedRounds rounds.
func newSession(t *testing.T) *session {
	t.Helper()
	work, env := harness.Isolated(t)
	if err := os.CopyFS(filepath.Join(work, "scripts"), os.DirFS(harness.ShippedCopy(t))); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(work, "docs", "bots"), os.DirFS(filepath.Join(repo, "docs", "bots"))); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY"} {
		if v, err := exec.Command("go", "env", k).Output(); err == nil {
			env = append(env, k+"="+strings.TrimSpace(string(v)))
		}
	}
	goBin, _ := exec.LookPath("go")
	env = append(env, "GOTOOLCHAIN=local", "GOFLAGS=", "SQUAREBATTLE_RULES_ROUNDS="+boundedRounds)
	sh := harness.StartShell(t, 120, 40, work, env)
	sh.Wait = 3 * time.Minute
	if goBin != "" {
		sh.Run("PATH=$PATH:" + filepath.Dir(goBin) + "; export PATH")
		sh.Until("PATH set", func(s string) bool { return strings.Contains(s, "exit=0") })
	}
	return &session{t: t, sh: sh, work: work}
}

// run types c and waits for it to end with status 0. A terminal UI it opens
// (the lobby, a battle, a replay) is left with q, as a person would once
// it is on the screen.
func (s *session) run(c command) {
	s.t.Helper()
	line := c.line
	for _, p := range prefixes {
		if strings.HasPrefix(line, strings.TrimSpace(p)) && strings.TrimSpace(p) != "squarebattle" {
			line = "squarebattle" + strings.TrimPrefix(line, strings.TrimSpace(p))
		}
	}
	s.n++
	marker := fmt.Sprintf("done-%d", s.n)
	s.sh.Tm.Run("clear-history", "-t", "sb")
	s.sh.Tm.Send("clear; "+line+`; echo "`+marker+` exit=$?"`, "Enter")
	re := regexp.MustCompile(marker + ` exit=(\d+)`)
	deadline := time.Now().Add(s.sh.Wait)
	pressed := 0
	for {
		screen, err := s.sh.Tm.Run("capture-pane", "-p", "-J", "-t", "sb", "-S", "-")
		if err != nil {
			s.t.Fatal(err)
		}
		if m := re.FindStringSubmatch(screen); m != nil {
			if m[1] != "0" {
				s.t.Errorf("%s: `%s` exited %s:\n%s", c.where, c.line, m[1], harness.Framed(screen))
			}
			return
		}
		ui := strings.Contains(screen, "Round ") && strings.Contains(screen, "│") || strings.Contains(screen, "Start Battle") || strings.Contains(screen, "q again")
		if ui && pressed < 4 && time.Since(deadline.Add(-s.sh.Wait)) > time.Duration(pressed+1)*time.Second {
			s.sh.Tm.Send("q")
			pressed++
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s: `%s` did not end within %v:\n%s", c.where, c.line, s.sh.Wait, harness.Framed(screen))
		}
		time.Sleep(harness.Poll)
	}
}

// runAll runs every command of cs, in order, except templates and skips.
func (s *session) runAll(cs []command, before map[string]func()) int {
	s.t.Helper()
	ran := 0
	for _, c := range cs {
		if reason, ok := skipped[c.line]; ok {
			s.t.Logf("%s: not run: `%s`: %s", c.where, c.line, reason)
			continue
		}
		if template(c.line) {
			continue
		}
		for key, f := range before {
			if strings.Contains(c.line, key) {
				f()
			}
		}
		s.run(c)
		ran++
	}
	return ran
}

// TestDocumentedCommands runs every squarebattle command that the bot
// protocol's page and the bot kits print, in a shell, in document order, in
// a folder laid out like a clone of the repository: each must exit 0. The
// commands name the reader's own bot programs (mybot.py, ./mysnake, a.py,
// b.js); the kits stand in for them. The README's, the other docs', the
// help texts' and new's commands are run by TestPrintedCommands
// (commands_test.go).
func TestDocumentedCommands(t *testing.T) {
	harness.NeedTmux(t)
	for _, tool := range []string{"python3", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			harness.SkipOrRequire(t, "the bot kits' commands need %s", tool)
		}
	}
	var docs []string
	for _, pattern := range []string{"docs/bots.md", "docs/bots/*.md", "docs/bots/*/*.md", "docs/bots/*/*.py", "docs/bots/*/*.js"} {
		m, _ := filepath.Glob(filepath.Join(repo, pattern))
		docs = append(docs, m...)
	}
	for _, path := range docs {
		name, _ := filepath.Rel(repo, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cs := extract(name, string(data), strings.HasSuffix(path, ".md"))
		if len(cs) == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			before := map[string]func(){
				// The README's first player, saved as it says.
				"hunter": func() { writeOnce(t, filepath.Join(s.work, "scripts", "hunter.lua"), readmeHunter(t)) },
				// docs/tournament.md runs two shards of four "and 2/4 and 3/4,
				// on other machines": those too, before the merge.
				"tournament merge": func() {
					for _, i := range []string{"2", "3"} {
						s.run(command{where: name + " (the shards it says run elsewhere)", line: "squarebattle tournament --format koth --games 400 --seed 7 --shard " + i + "/4 --out results/" + i + ".json"})
					}
				},
				// docs/bots.md names the reader's own bots: the kits stand in
				// (with the module the Python kit imports beside them, or they
				// crash at once, which check --bot says).
				"mybot.py": func() {
					copyFile(t, s.work, "docs/bots/python/squares.py", "mybot.py")
					copyFile(t, s.work, "docs/bots/python/botio.py", "botio.py")
				},
				"a.py": func() {
					copyFile(t, s.work, "docs/bots/python/squares.py", "a.py")
					copyFile(t, s.work, "docs/bots/python/botio.py", "botio.py")
				},
				"b.js": func() { copyFile(t, s.work, "docs/bots/node/squares.js", "b.js") },
				"./mysnake": func() {
					writeOnce(t, filepath.Join(s.work, "mysnake"), []byte("#!/bin/sh\nexec python3 docs/bots/python/snake.py \"$@\"\n"))
					os.Chmod(filepath.Join(s.work, "mysnake"), 0o755)
				},
				"pysquares": func() {
					writeOnce(t, filepath.Join(s.work, "scripts", "pysquares.bot"), []byte("command: python3 ../docs/bots/python/squares.py\ntransport: stdio\n"))
				},
				"results/": func() { os.MkdirAll(filepath.Join(s.work, "results"), 0o755) },
			}
			for i, c := range cs {
				// docs/scripting.md copies the Starter, then says to rename it.
				if c.line == "cp scripts/starter.lua scripts/mine.lua" {
					cs = append(cs[:i+1:i+1], append([]command{{where: c.where + " (step 2: the name changed)", line: `sed -i 's/name = "Starter"/name = "Mine"/' scripts/mine.lua`}}, cs[i+1:]...)...)
					break
				}
			}
			n := s.runAll(cs, before)
			t.Logf("%d commands ran", n)
		})
	}
}

func readmeHunter(t *testing.T) []byte {
	data, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)Save this as `scripts/hunter.lua`:\\s*```lua\n(.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md has no Hunter to save")
	}
	return m[1]
}

func writeOnce(t *testing.T, path string, data []byte) {
	if _, err := os.Stat(path); err == nil {
		return
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, work, from, to string) {
	data, err := os.ReadFile(filepath.Join(work, from))
	if err != nil {
		t.Fatal(err)
	}
	writeOnce(t, filepath.Join(work, to), data)
}
