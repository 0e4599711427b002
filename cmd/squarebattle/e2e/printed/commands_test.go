//go:build unix

package printed

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
	"github.com/squarebattle/squarebattle/scripts"
)

// The texts a newcomer copies commands from: what new prints and writes,
// the Starter, every help text, the README and docs/*.md. Every
// `squarebattle …` command line in them is run as printed by
// TestPrintedCommands, in a working folder prepared as the text implies,
// and must exit 0.
//
// How a command runs:
//   - as the program built once for the test binary (harness.Program; a
//     line starting `go run ./cmd/squarebattle` is the same program), in
//     the working folder, its output read;
//   - the ones that open the terminal UI (play, replay FILE, and no
//     command at all) on a pseudo-terminal, the way a user's terminal runs
//     them: the test waits for the first frame and presses q until the
//     program quits, which it must do with exit status 0. A dry run would
//     test a path no user takes; the pty runs the real one, argument
//     checks, scripts, game and screen included;
//   - in a working folder with the scripts folder new makes (the
//     repository's scripts/, copied from the embedded scripts.FS, never
//     the user's), or an empty one for texts that start by running new;
//     files a README section says to save are saved, and the `cp` and
//     `mkdir -p` lines of a document's code blocks are carried out;
//   - HOME, XDG_CONFIG_HOME and XDG_DATA_HOME point into the test's
//     folder, so no configuration of the user's applies;
//   - tournaments and rule mods' battles, which cost minutes as printed,
//     play at most boundedRounds rounds (SQUAREBATTLE_RULES_ROUNDS, as a
//     user's environment could say): how long a battle lasts changes
//     neither the arguments a command accepts nor its exit status.
//
// The lines that are not run are the ones skipCommands names, each with
// its reason; a synopsis with placeholders (FILE, [flags]) is not a
// command line.
//
// The texts of the bot protocol and the bot kits, whose commands play the
// reader's own bot programs, are TestDocumentedCommands' (printed_test.go).

// skipCommands are the printed commands not run, by a pattern of the line
// and why.
var skipCommands = []struct{ pattern, why string }{
	{"squarebattle serve", "starts the SSH arena, which listens on a network port until it is stopped"},
	{"squarebattle connect", "connects a bot to an arena over SSH: it needs a running arena (e2e/arena runs it)"},
	{"--bot ", "plays an external bot program the reader writes (python3 mybot.py, ./mysnake): the text gives none"},
	{"duel.sbr", "verifies the recording of the --bot battle before it, skipped with it"},
	{"TERM=…", "a measurement recipe with placeholders (FPS 30|240, TERM=…), which BenchmarkPlayPTY runs"},
	{"sbatch ", "a Slurm job: it needs a Slurm cluster"},
	{"ladder work --db", "a worker host: it needs the arena's PostgreSQL (e2e/pgladder runs it)"},
}

// printedCommand is one command line of a text.
type printedCommand struct {
	where string   // the text and line it comes from
	line  string   // as printed (continuation lines joined)
	args  []string // the program's arguments
	env   []string // NAME=VALUE assignments before it
	out   string   // the file its standard output goes to (> FILE), or ""
	shell []string // not the program: cp or mkdir -p, and its arguments
	skip  string   // why it is not run, or ""
}

// word is one word of a shell line: its text, and whether it holds an
// unquoted * or ? to expand.
type word struct {
	s    string
	glob bool
	op   bool // a shell operator: > < | ; & &&
}

// shellWords splits a line as sh would: quotes, backslashes, operators;
// a # that starts a word starts a comment.
func shellWords(line string) ([]word, error) {
	var words []word
	var cur strings.Builder
	in, glob, quoted := false, false, false
	flush := func() {
		if in {
			words = append(words, word{s: cur.String(), glob: glob})
		}
		cur.Reset()
		in, glob, quoted = false, false, false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '#' && !in:
			return words, nil
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated '")
			}
			cur.WriteString(line[i+1 : i+1+j])
			in, quoted, i = true, true, i+1+j
		case c == '"':
			j := strings.IndexByte(line[i+1:], '"')
			if j < 0 {
				return nil, errors.New(`unterminated "`)
			}
			if strings.ContainsAny(line[i+1:i+1+j], "$`\\") {
				return nil, errors.New(`$, backquote or \ in "…": not a plain command line`)
			}
			cur.WriteString(line[i+1 : i+1+j])
			in, quoted, i = true, true, i+1+j
		case c == '\\' && i+1 < len(line):
			cur.WriteByte(line[i+1])
			in, i = true, i+1
		case strings.IndexByte("<>|;&", c) >= 0:
			flush()
			op := string(c)
			if i+1 < len(line) && (line[i+1] == c || c == '>' && line[i+1] == '>') {
				op, i = op+string(line[i+1]), i+1
			}
			words = append(words, word{s: op, op: true})
		case c == '$' || c == '`':
			return nil, fmt.Errorf("%c: not a plain command line", c)
		default:
			if (c == '*' || c == '?') && !quoted {
				glob = true
			}
			cur.WriteByte(c)
			in = true
		}
	}
	flush()
	return words, nil
}

var (
	envWord   = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)
	synopsis  = regexp.MustCompile(`\[|\.\.\.|…|\b[A-Z]{2,}\b`)
	wrappedSB = regexp.MustCompile(`['"]squarebattle `)
)

// parseCommand reads one logical line of a text: a command of the program
// (squarebattle …, go run ./cmd/squarebattle …), a cp or mkdir -p line,
// or nothing (ok false).
func parseCommand(where, line string, kind textKind) (c printedCommand, ok bool, err error) {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "$ ")
	c = printedCommand{where: where, line: line}
	// A command of the program, after any NAME=VALUE words; or, in a
	// code block, one quoted inside another program's line.
	fields := strings.Fields(line)
	for len(fields) > 0 && envWord.MatchString(fields[0]) {
		fields = fields[1:]
	}
	program := len(fields) > 0 && fields[0] == "squarebattle" ||
		len(fields) > 2 && fields[0] == "go" && fields[1] == "run" && strings.TrimSuffix(fields[2], "/") == "./cmd/squarebattle"
	wrapped := kind == markdownText && !program && wrappedSB.MatchString(line)
	if program || wrapped {
		for _, s := range skipCommands {
			if strings.Contains(line, s.pattern) {
				c.skip = s.why
				return c, true, nil
			}
		}
	}
	if wrapped {
		return c, true, errors.New("a squarebattle command inside another program's line: run it, or give skipCommands a reason")
	}
	words, err := shellWords(line)
	if err != nil || len(words) == 0 {
		if strings.HasPrefix(line, "squarebattle") {
			return c, true, err
		}
		return c, false, nil
	}
	for len(words) > 0 && !words[0].op && envWord.MatchString(words[0].s) {
		c.env = append(c.env, words[0].s)
		words = words[1:]
	}
	texts := func(ws []word) []string {
		var out []string
		for _, w := range ws {
			out = append(out, w.s)
		}
		return out
	}
	switch t := texts(words); {
	case len(t) > 0 && t[0] == "squarebattle":
		words = words[1:]
	case len(t) > 2 && t[0] == "go" && t[1] == "run" && strings.TrimSuffix(t[2], "/") == "./cmd/squarebattle":
		words = words[3:]
	case len(t) == 3 && t[0] == "cp", len(t) > 2 && t[0] == "mkdir" && t[1] == "-p":
		c.shell = t
		return c, true, nil
	default:
		return c, false, nil
	}
	if synopsis.MatchString(strings.Join(texts(words), " ")) {
		c.skip = "a synopsis: its placeholders are not arguments"
		return c, true, nil
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w.op && w.s == ">" && i+1 < len(words) && !words[i+1].op && c.out == "":
			c.out, i = words[i+1].s, i+1
		case w.op:
			return c, true, fmt.Errorf("shell operator %s: a printed command must be one plain command", w.s)
		case w.glob:
			c.args = append(c.args, "\x00glob:"+w.s) // expanded in the working folder
		default:
			c.args = append(c.args, w.s)
		}
	}
	return c, true, nil
}

// textKind says which lines of a text are meant to be run.
type textKind int

const (
	plainText    textKind = iota // every line (what a command prints)
	luaText                      // the comment lines of a Lua file
	markdownText                 // the lines of fenced code blocks
)

// savedFile is a file a text says to save: its name and content.
type savedFile struct{ name, text string }

var saveThis = regexp.MustCompile("Save this as `([^`]+)`:\\s*$")

// commandsIn finds the command lines of text (named where), and for
// Markdown the files it says to save ("Save this as `FILE`:" before a
// code block).
func commandsIn(t *testing.T, where, text string, kind textKind) (cmds []printedCommand, files []savedFile) {
	t.Helper()
	lines := strings.Split(text, "\n")
	fenced, save := false, ""
	var block []string
	for i := 0; i < len(lines); i++ {
		l, at := lines[i], i+1
		switch kind {
		case markdownText:
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				if fenced && save != "" {
					files = append(files, savedFile{save, strings.Join(block, "\n") + "\n"})
				}
				fenced, save, block = !fenced, "", nil
				if fenced && i > 0 {
					for j := i - 1; j >= 0; j-- {
						if strings.TrimSpace(lines[j]) == "" {
							continue
						}
						if m := saveThis.FindStringSubmatch(lines[j]); m != nil {
							save = m[1]
						}
						break
					}
				}
				continue
			}
			if !fenced {
				continue
			}
			block = append(block, l)
			if save != "" {
				continue
			}
		case luaText:
			s := strings.TrimSpace(l)
			if !strings.HasPrefix(s, "--") {
				continue
			}
			l = strings.TrimPrefix(s, "--")
		}
		for strings.HasSuffix(strings.TrimSpace(l), `\`) && i+1 < len(lines) {
			i++
			next := lines[i]
			if kind == luaText {
				next = strings.TrimPrefix(strings.TrimSpace(next), "--")
			}
			l = strings.TrimSuffix(strings.TrimSpace(l), `\`) + " " + strings.TrimSpace(next)
		}
		c, ok, err := parseCommand(fmt.Sprintf("%s:%d", where, at), l, kind)
		if err != nil {
			t.Errorf("%s:%d: %q: %v", where, at, strings.TrimSpace(l), err)
			continue
		}
		if ok {
			cmds = append(cmds, c)
		}
	}
	return cmds, files
}

// commandEnv is the test's environment for the program: nothing of the
// user's configuration.
func commandEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
	}
}

// opensUI reports whether the program's arguments open the terminal UI.
func opensUI(args []string) bool {
	if slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return false
	}
	return len(args) == 0 || args[0] == "play" || args[0] == "replay" && !slices.Contains(args, "--verify")
}

// bounded reports whether a command plays long battles: tournaments and
// rule mods' (see boundedRounds).
func bounded(dir string, args []string) bool {
	if len(args) == 0 || args[0] == "tournament" && len(args) > 1 && args[1] == "merge" {
		return false
	}
	if args[0] == "tournament" || slices.Contains(args, "--game") {
		return true
	}
	for _, a := range args {
		if m, _ := filepath.Match("*/*/*.lua", filepath.ToSlash(a)); m && strings.HasSuffix(a, ".lua") {
			if _, err := os.Stat(filepath.Join(dir, filepath.Dir(a), "rules.lua")); err == nil {
				return true
			}
		}
	}
	return false
}

// commandRunner runs printed commands in one working folder.
type commandRunner struct {
	t    *testing.T
	dir  string
	home string
	ran  map[string]bool // lines run already in this folder
}

func newRunner(t *testing.T, withScripts bool) *commandRunner {
	t.Helper()
	r := &commandRunner{t: t, dir: t.TempDir(), home: t.TempDir(), ran: map[string]bool{}}
	if withScripts {
		if err := os.CopyFS(filepath.Join(r.dir, "scripts"), scripts.FS); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// run runs the commands in order (a line printed twice in one folder runs
// once), each as a subtest of the runner's test.
func (r *commandRunner) run(cmds []printedCommand) {
	for _, c := range cmds {
		if c.skip != "" {
			r.t.Logf("%s: not run: %q: %s", c.where, c.line, c.skip)
			continue
		}
		if r.ran[c.line] {
			continue
		}
		r.ran[c.line] = true
		r.t.Run(c.where+" "+c.line, func(t *testing.T) { r.one(t, c) })
	}
}

func (r *commandRunner) one(t *testing.T, c printedCommand) {
	if c.shell != nil {
		r.shell(t, c.shell)
		return
	}
	env := append(commandEnv(r.home), c.env...)
	var args []string
	for _, a := range c.args {
		if g, ok := strings.CutPrefix(a, "\x00glob:"); ok {
			matches, err := filepath.Glob(filepath.Join(r.dir, g))
			if err != nil || len(matches) == 0 {
				t.Fatalf("%s: %s matches no file", c.line, g)
			}
			for _, m := range matches {
				rel, _ := filepath.Rel(r.dir, m) // as the shell expands it
				args = append(args, rel)
			}
			continue
		}
		args = append(args, a)
	}
	if bounded(r.dir, args) {
		env = append(env, "SQUAREBATTLE_RULES_ROUNDS="+boundedRounds)
	}
	if opensUI(args) {
		runOnPTY(t, r.dir, env, args)
		return
	}
	code, out, errOut := runProgram(t, r.dir, env, args...)
	if code != 0 {
		t.Fatalf("%s: exit %d, want 0\nstderr: %s\nstdout:\n%s", c.line, code, errOut, tail(out, 2000))
	}
	if c.out != "" {
		if err := os.WriteFile(filepath.Join(r.dir, c.out), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runProgram runs the program with args in dir, in this test's
// environment without its SQUAREBATTLE_* settings, then env (later
// entries win), and returns its exit status and output.
func runProgram(t *testing.T, dir string, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SQUAREBATTLE_") {
			base = append(base, kv)
		}
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command(harness.Program(t), args...)
	cmd.Dir, cmd.Env = dir, append(base, env...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("squarebattle %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), errOut.String()
}

// shell carries out a cp or mkdir -p line of a document in the runner's
// folder.
func (r *commandRunner) shell(t *testing.T, sh []string) {
	in := func(name string) string { return filepath.Join(r.dir, name) }
	switch sh[0] {
	case "cp":
		data, err := os.ReadFile(in(sh[1]))
		if err != nil {
			t.Fatalf("cp: %v", err)
		}
		if err := os.WriteFile(in(sh[2]), data, 0o644); err != nil {
			t.Fatalf("cp: %v", err)
		}
	case "mkdir":
		for _, d := range sh[2:] {
			if err := os.MkdirAll(in(d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	case "rename": // a step of afterCommand: rename FILE DISPLAY
		src, err := os.ReadFile(in(sh[1]))
		if err != nil {
			t.Fatal(err)
		}
		out, ok := rename(src, sh[2])
		if !ok {
			t.Fatalf("%s has no name to change", sh[1])
		}
		if err := os.WriteFile(in(sh[1]), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// nameRe is a player's name = "..." (as the program's new renames it).
var nameRe = regexp.MustCompile(`name\s*=\s*"[^"\n]*"`)

// rename gives the first name = "..." of a player's source outside its
// comments the display name, as a reader told to change it does; ok is
// false when there is none.
func rename(src []byte, display string) (out []byte, ok bool) {
	for _, loc := range nameRe.FindAllIndex(src, -1) {
		lineStart := bytes.LastIndexByte(src[:loc[0]], '\n') + 1
		if bytes.Contains(src[lineStart:loc[0]], []byte("--")) {
			continue // in a comment
		}
		out = append(out, src[:loc[0]]...)
		out = append(out, fmt.Sprintf("name = %q", display)...)
		return append(out, src[loc[1]:]...), true
	}
	return src, false
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// ptyWait bounds each step of a run on the pty: the first frame, and the
// exit after q. It only stops a hung program; no time is asserted.
const ptyWait = 2 * time.Minute

// runOnPTY runs the program with args in dir on an 80×24 pseudo-terminal,
// waits for its first frame, presses q until it exits (a battle asks
// first: q again quits), and fails unless it exits with status 0.
func runOnPTY(t *testing.T, dir string, env, args []string) {
	cmd := exec.Command(harness.Program(t), args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "LANG=C.UTF-8"}, env...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: 80, Rows: 24})
	if err != nil {
		t.Skipf("cannot run on a pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var mu sync.Mutex
	var seen []byte
	framed := make(chan struct{})
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 32<<10)
		first := true
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			seen = append(seen, buf[:n]...)
			if first && bytes.Contains(seen, []byte(frameEndSeq)) {
				first = false
				close(framed)
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	screen := func() string {
		mu.Lock()
		defer mu.Unlock()
		return tail(string(seen), 1500)
	}
	select {
	case <-framed:
	case err := <-exited:
		<-read
		t.Fatalf("squarebattle %s: exited before drawing (%v):\n%q", strings.Join(args, " "), err, screen())
	case <-time.After(ptyWait):
		_ = cmd.Process.Kill()
		t.Fatalf("squarebattle %s: no frame after %v:\n%q", strings.Join(args, " "), ptyWait, screen())
	}
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(ptyWait)
	for {
		if _, err := ptmx.Write([]byte("q")); err != nil && !errors.Is(err, os.ErrClosed) {
			t.Logf("pressing q: %v", err)
		}
		select {
		case err := <-exited:
			if err != nil {
				t.Fatalf("squarebattle %s: %v after q, want exit status 0:\n%q", strings.Join(args, " "), err, screen())
			}
			return
		case <-deadline:
			_ = cmd.Process.Kill()
			t.Fatalf("squarebattle %s: still running %v after q:\n%q", strings.Join(args, " "), ptyWait, screen())
		case <-tick.C:
		}
	}
}

// frameEndSeq is what the terminal UI writes at the end of every frame
// (tcell's end of a synchronized update).
const frameEndSeq = "\x1b[?2026l"

// newCases are the new commands whose output and written player are run:
// each kind of game, and a scripts folder named by --scripts (with a space,
// which the printed commands must quote).
var newCases = []struct{ name, args string }{
	{"SquareBattle", "new mine"},
	{"paint", "new --game paint brush"},
	{"orbs", "new --game orbs orbiter"},
	{"snake", "new --game snake slither"},
	{"squarebattle-lua", "new --game squarebattle-lua ruled"},
	{"--scripts", "new --scripts my_scripts mine"},
	{"--scripts with a space", "new --scripts 'my scripts' mine"},
}

// TestPrintedCommands runs every command line printed by new (for every
// kind of game), written into the players new makes and the Starter, the
// help texts, README.md and docs/*.md, as printed (see the top of this
// file), and wants each to exit 0. Each text's commands run in order in a
// folder of their own; the texts run side by side.
func TestPrintedCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs some 80 commands, the terminal UI's on a pty")
	}
	var mu sync.Mutex // guards what the texts' subtests count
	var total, skipped int
	matched := map[string]bool{}
	// read and expected: the texts read, and the ones there are; when
	// every one was read (no -run picked some), every skip pattern must
	// still match a printed command.
	read, expected := map[string]bool{}, map[string]bool{}
	count := func(name string, cmds []printedCommand) {
		mu.Lock()
		defer mu.Unlock()
		if name != "" {
			read[name] = true
		}
		for _, c := range cmds {
			total++
			if c.skip != "" {
				skipped++
				for _, s := range skipCommands {
					if c.skip == s.why {
						matched[s.pattern] = true
					}
				}
			}
		}
	}

	t.Run("new", func(t *testing.T) {
		for _, nc := range newCases {
			t.Run(nc.name, func(t *testing.T) {
				t.Parallel()
				r := newRunner(t, false)
				newCmd, ok, err := parseCommand("test", "squarebattle "+nc.args, plainText)
				if err != nil || !ok {
					t.Fatal(err)
				}
				code, out, errOut := runProgram(t, r.dir, commandEnv(r.home), newCmd.args...)
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", nc.args, code, errOut)
				}
				cmds, _ := commandsIn(t, nc.args+" output", out, plainText)
				m := regexp.MustCompile(`Wrote (.+\.lua), `).FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("new names no file:\n%s", out)
				}
				src, err := os.ReadFile(filepath.Join(r.dir, m[1]))
				if err != nil {
					t.Fatal(err)
				}
				inFile, _ := commandsIn(t, m[1], string(src), luaText)
				if len(cmds) < 3 || len(inFile) < 3 {
					t.Errorf("new prints %d commands and writes %d into %s; want 3 or more each:\n%s", len(cmds), len(inFile), m[1], out)
				}
				all := append(cmds, inFile...)
				count("", all)
				r.run(all)
			})
		}
	})

	t.Run("starter", func(t *testing.T) {
		src, err := scripts.FS.ReadFile("starter.lua")
		if err != nil {
			t.Fatal(err)
		}
		cmds, _ := commandsIn(t, "scripts/starter.lua", string(src), luaText)
		if len(cmds) == 0 || cmds[0].line != "squarebattle new mine" {
			t.Fatalf("the Starter's first command is not squarebattle new mine: %+v", cmds)
		}
		count("", cmds)
		newRunner(t, false).run(cmds)
	})

	keys := [][]string{nil, {"tournament", "merge"}, {"tournament", "challenge"}}
	for _, c := range helpCommands(t) {
		keys = append(keys, []string{c})
	}
	docs, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append([]string{filepath.Join(repo, "README.md")}, docs...)
	docName := func(path string) string {
		name, _ := filepath.Rel(repo, path)
		return filepath.ToSlash(name)
	}
	for _, k := range keys {
		expected["squarebattle help "+strings.Join(k, " ")] = true
	}
	for _, doc := range docs {
		expected[docName(doc)] = true
	}

	t.Run("help", func(t *testing.T) {
		for _, k := range keys {
			name := "squarebattle help " + strings.Join(k, " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				code, out, errOut := runProgram(t, t.TempDir(), commandEnv(t.TempDir()), append([]string{"help"}, k...)...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				cmds, _ := commandsIn(t, name, out, plainText)
				run := 0
				for _, c := range cmds {
					if c.skip == "" {
						run++
					}
				}
				if run == 0 && len(k) > 0 && k[0] != "serve" && k[0] != "connect" && k[0] != "ladder" { // an arena, or its database
					t.Errorf("%s prints no command to run:\n%s", name, out)
				}
				count(name, cmds)
				newRunner(t, true).run(cmds)
			})
		}
	})

	t.Run("docs", func(t *testing.T) {
		for _, doc := range docs {
			name := docName(doc)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				text, err := os.ReadFile(doc)
				if err != nil {
					t.Fatal(err)
				}
				cmds, files := commandsIn(t, name, string(text), markdownText)
				r := newRunner(t, true)
				for _, f := range files {
					if err := os.WriteFile(filepath.Join(r.dir, f.name), []byte(f.text), 0o644); err != nil {
						t.Fatalf("saving %s as %s says: %v", f.name, name, err)
					}
				}
				count(name, cmds)
				r.run(afterCommand(name, cmds))
			})
		}
	})

	t.Logf("%d printed commands, %d not run", total, skipped)
	for _, s := range skipCommands {
		if len(read) == len(expected) && !matched[s.pattern] {
			t.Errorf("skipCommands: no printed command matches %q any more: drop it", s.pattern)
		}
	}
}

// helpCommands returns the commands squarebattle help lists.
func helpCommands(t *testing.T) []string {
	t.Helper()
	code, out, errOut := runProgram(t, t.TempDir(), commandEnv(t.TempDir()), "help")
	if code != 0 {
		t.Fatalf("squarebattle help: exit %d: %s", code, errOut)
	}
	_, list, ok := strings.Cut(out, "\ncommands:\n")
	if !ok {
		t.Fatalf("squarebattle help lists no commands:\n%s", out)
	}
	var names []string
	for _, l := range strings.Split(list, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasPrefix(l, "  ") {
			break
		}
		names = append(names, f[0])
	}
	if len(names) < 5 {
		t.Fatalf("squarebattle help lists %q as its commands:\n%s", names, out)
	}
	return names
}

// afterCommand adds what a document's prose asks the reader to do after
// one of its commands, as a step run after it: scripting.md's quick start
// copies the Starter with cp, then says to change its name.
func afterCommand(doc string, cmds []printedCommand) []printedCommand {
	if doc != "docs/scripting.md" {
		return cmds
	}
	var out []printedCommand
	for _, c := range cmds {
		out = append(out, c)
		if strings.Join(c.shell, " ") == "cp scripts/starter.lua scripts/mine.lua" {
			out = append(out, printedCommand{where: c.where, line: `(change name = "Starter" to name = "Mine")`, shell: []string{"rename", "scripts/mine.lua", "Mine"}})
		}
	}
	return out
}

// TestReadmeFirstScreen: the README's first screen gives exactly two
// commands to set up, go run ./cmd/squarebattle and go test ./..., and
// right after them says that the first build takes a while and how
// go install ./cmd/squarebattle gives a squarebattle command, the one the
// program's hints name.
func TestReadmeFirstScreen(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(repo, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)^(.*?)```sh\n(.*?)```\n\n(.*?)\n\n").FindSubmatch(text)
	if m == nil {
		t.Fatal("README.md has no sh code block followed by a paragraph")
	}
	if lines := strings.Count(string(m[1]), "\n"); lines > 15 {
		t.Errorf("the set-up commands start on line %d: not on the first screen", lines+1)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(string(m[2])), "\n") {
		cmd, _, _ := strings.Cut(l, "#")
		got = append(got, strings.TrimSpace(cmd))
	}
	if want := []string{"go run ./cmd/squarebattle", "go test ./..."}; !slices.Equal(got, want) {
		t.Errorf("the first commands are %q, want exactly %q", got, want)
	}
	note := strings.Join(strings.Fields(string(m[3])), " ")
	for _, s := range []string{"few minutes", "nothing is printed", "`go install ./cmd/squarebattle`", "`squarebattle`", "`$(go env GOPATH)/bin`", "PATH"} {
		if !strings.Contains(note, s) {
			t.Errorf("the paragraph after the set-up commands does not say %q:\n%s", s, note)
		}
	}
}
