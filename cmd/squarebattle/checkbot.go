package main

import (
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
	"github.com/squarebattle/squarebattle/engine/bot/process"
	"github.com/squarebattle/squarebattle/engine/replay"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
)

// check --bot COMMAND: what check does for a Lua script, for a bot. First
// a conformance run: short battles on a small arena that take the bot
// through the whole protocol (hello and ready, round messages and
// answers, end), in SquareBattle once with a square on every edge and
// corner of an arena that does not wrap and once on one that wraps; then
// the trial battle a Lua script gets. Each kind of fault is reported with
// its count, its first round and the line the bot wrote then, and the
// last lines the bot wrote to standard error close the report.

// botCheckID is the class id of the bot check fields, as --bot's first.
const botCheckID = "bot1"

// Conformance battles: conformSize × conformSize, conformRounds rounds
// (a rule mod's: conformModRounds), replication resting one round so the
// bot's squares are asked every round.
const (
	conformSize      = 6
	conformRounds    = 3
	conformModRounds = 30
)

// checkBot checks the bot that command starts, as a player of game ("":
// SquareBattle), and returns the verdict: nil when it has no problem.
func checkBot(flags *pflag.FlagSet, c *commonFlags, game, command string, w io.Writer) error {
	argv, err := bot.SplitCommand(command)
	if err != nil {
		return bad(fmt.Errorf("--bot %q: %v", command, err))
	}
	cfg, g, players, dir, err := botCheckGame(flags, c, game)
	if err != nil {
		return err
	}
	ck, err := newChecker(flags, cfg, g, players, dir)
	if err != nil {
		return err
	}
	spec := &bot.Spec{ID: botCheckID, File: "--bot", Command: argv, Transport: process.Stdio}
	bc := &botChecker{checker: ck, spec: spec, game: game, timing: battle.Timing(cfg, false)}
	return bc.report(w, command)
}

// botCheckGame loads the configuration and the game a bot is checked
// for: the one game names (nil: SquareBattle), with the folder of the
// players it meets and that folder's name.
func botCheckGame(flags *pflag.FlagSet, c *commonFlags, name string) (config.Config, *luabind.Game, fs.FS, string, error) {
	cfg, err := loadConfig(flags, c)
	if err != nil {
		return cfg, nil, nil, "", err
	}
	if name == "" {
		fsys, dir, err := scriptsFS(cfg)
		return cfg, nil, fsys, dir, err
	}
	sub, gameDir, err := gameFS(cfg, name)
	if err != nil {
		return cfg, nil, nil, "", err
	}
	cfg, g, err := loadGameIn(flags, c, cfg, sub, gameDir, true)
	if err != nil {
		return cfg, nil, nil, "", err
	}
	if g.Info.Protocol == luabind.SquareBattleProtocol {
		fsys, dir, err := scriptsFS(cfg) // rules in Lua for SquareBattle's players
		return cfg, g, fsys, dir, err
	}
	return cfg, g, sub, gameDir, nil
}

// botChecker is a checker whose player is a bot.
type botChecker struct {
	*checker
	spec   *bot.Spec
	game   string
	timing bot.Timing
}

// botRun is one battle check --bot plays, with the tap on the bot's
// connection.
type botRun struct {
	*trial
	tap *tapConn
}

// battleShape is a battle's board as check --bot asks for it.
type battleShape struct {
	size, rounds int
	wrap         bool
	m            *engine.Map // SquareBattle: the starting arena, or nil
	replicate    int         // SquareBattle: replication's rest, 0: the configuration's
}

// start begins a battle of the bot (team 0) against other.
func (bc *botChecker) start(other *luabind.Class, seed uint64, sh battleShape) (*botRun, error) {
	seat, rs, err := wallsOf(bc.cfg)
	if err != nil {
		return nil, err
	}
	tap := &tapConn{}
	setup := battle.Setup{Config: bc.cfg, Teams: []battle.Team{{Bot: bc.spec}, {Lua: other}}, GameName: bc.game, Seat: seat,
		Timing: bc.timing, Tap: func(_ int, c bot.Conn) bot.Conn { tap.Conn = c; return tap }}
	if bc.checker.game != nil {
		g := bc.checker.game
		o := modOptions(bc.flags, bc.cfg, g)
		o.Rounds, o.Seed, o.Workers = sh.rounds, seed, 1
		setup.Game, setup.Catalog, setup.ModOptions = g, g.Catalog, battle.BotModOptions(o, 2)
		players, seat, bots, err := battle.FieldBots(setup)
		if err != nil {
			return nil, err
		}
		b, err := luabind.NewWalledModBattle(g, players, setup.ModOptions, bc.cfg.Limits.RulesInstructions, seat, rs)
		if err != nil {
			battle.StopBots(bots)
			return nil, bad(err)
		}
		closeAll := func() {
			s := b.Snapshot()
			battle.FinishBots(b.Seats, s, replay.EndReason(s))
			b.Close()
		}
		t := &trial{Stepper: b, rec: engine.NewModRecorder(b.ModBattle), seats: b.Seats, close: closeAll, err: b.Err, line: tap.lineOf}
		return &botRun{trial: t, tap: tap}, nil
	}
	o := engine.Options{Size: sh.size, Wrap: sh.wrap, Rounds: sh.rounds, ReplicateRounds: bc.cfg.Rules.ReplicateRounds, Seed: seed, Workers: 1}
	if sh.replicate > 0 {
		o.ReplicateRounds = sh.replicate
	}
	if sh.m != nil {
		o.Map, o.MapFile = sh.m, "check's arena"
	}
	setup.Game, setup.Catalog, setup.Options = bc.rules, bc.cat, o
	players, seat, bots, err := battle.FieldBots(setup)
	if err != nil {
		return nil, err
	}
	b, err := luabind.NewWalledBattle(bc.cat, players, o, bc.rules, bc.cfg.Limits.RulesInstructions, seat, rs)
	if err != nil {
		battle.StopBots(bots)
		return nil, bad(err)
	}
	closeAll := func() {
		s := b.Snapshot()
		battle.FinishBots(b.Seats, s, replay.EndReason(s))
		b.Close()
	}
	t := &trial{Stepper: b, rec: engine.NewRecorder(b.Battle), seats: b.Seats, close: closeAll, err: b.Err, line: tap.lineOf}
	return &botRun{trial: t, tap: tap}, nil
}

// edgeMap is a conformance arena: the bot's squares (team 0) on every
// corner and in the middle of every edge, the other team's square in the
// middle, so that the views show the edge (or, wrapping, the other side)
// in every direction.
func edgeMap(size int) *engine.Map {
	m := &engine.Map{Size: size, Cells: make([]int, size*size)}
	for i := range m.Cells {
		m.Cells[i] = engine.Empty
	}
	last, mid := size-1, size/2
	for _, rc := range [][2]int{{0, 0}, {0, last}, {last, 0}, {last, last}, {0, mid}, {mid, 0}, {last, mid - 1}, {mid - 1, last}} {
		m.Cells[rc[0]*size+rc[1]] = 0
	}
	m.Cells[mid*size+mid] = 1
	return m
}

// conformStep is one battle of the conformance run, what it shows the bot.
type conformStep struct {
	what  string
	shape battleShape
}

// report runs the conformance battles and the trial, prints what they
// showed and returns the verdict.
func (bc *botChecker) report(w io.Writer, command string) error {
	other := bc.opponent(&luabind.Class{ID: bc.spec.ID})
	seed := battle.Seed(bc.cfg)
	var steps []conformStep
	if bc.checker.game == nil {
		steps = []conformStep{
			{"rounds with a square on every edge and corner, edges that do not wrap", battleShape{size: conformSize, rounds: conformRounds, m: edgeMap(conformSize), replicate: 1}},
			{"rounds with a square on every edge and corner, edges that wrap", battleShape{size: conformSize, rounds: conformRounds, wrap: true, m: edgeMap(conformSize), replicate: 1}},
		}
	} else {
		steps = []conformStep{{fmt.Sprintf("the game's rounds (at most %d)", conformModRounds), battleShape{rounds: conformModRounds}}}
	}
	fmt.Fprintf(w, "Bot %s, checked against %s.\n", safe(command), safe(other.DisplayName()))
	fmt.Fprintf(w, "\nConformance (the whole protocol, in short battles):\n")
	var found []string
	kinds := map[[2]string]bool{} // the conformance run's, each once
	ends := 0                     // end went wrong
	ready := true
	var last *botRun
	for i, st := range steps {
		run, err := bc.start(other, seed, st.shape)
		if err != nil {
			return err
		}
		r := playTrial(run.trial, 0, trialBounds{})
		run.close()
		if err := run.err(); err != nil {
			return fmt.Errorf("a conformance battle stopped: %w", err)
		}
		me := r.final.Teams[0]
		if i == 0 {
			if notReady(r) {
				ready = false
				fmt.Fprintf(w, "  hello, ready: FAILED\n")
			} else {
				fmt.Fprintf(w, "  hello, ready: ok, the bot is \"%s\"\n", safe(me.Player.Name))
			}
		}
		for _, k := range r.kinds {
			kinds[[2]string{k.label, k.what}] = true
		}
		if !ready {
			writeKinds(w, r)
			last = run
			break
		}
		if len(r.kinds) == 0 {
			fmt.Fprintf(w, "  %s: ok\n", st.what)
		} else {
			fmt.Fprintf(w, "  %s: %s of problem\n", st.what, plural(len(r.kinds), "kind"))
			writeKinds(w, r)
		}
		// How the bot took end, unless it had faults already (a late
		// answer arriving after end is that fault, not another).
		if v := run.tap.endVerdict(); v != "" && len(r.kinds) == 0 {
			fmt.Fprintf(w, "  end: %s\n", v)
			ends++
		} else if i == len(steps)-1 && ends == 0 && len(kinds) == 0 {
			fmt.Fprintf(w, "  end: ok, the bot exited\n")
		}
		last = run
	}
	if n := len(kinds) + min(ends, 1); n > 0 {
		found = append(found, fmt.Sprintf("%s of problem in the conformance run", plural(n, "kind")))
	}
	if ready {
		run, err := bc.start(other, seed, bc.trialShape(seed))
		if err != nil {
			return err
		}
		r := playTrial(run.trial, 0, checkBounds)
		run.close()
		fmt.Fprintf(w, "\nTrial battle against %s (%s):\n", safe(other.DisplayName()), bc.describe(r.final))
		r.write(w, bc.checker.game != nil)
		if err := run.err(); err != nil {
			return fmt.Errorf("the trial battle stopped: %w", err)
		}
		me := r.final.Teams[0].Stats
		if len(r.kinds) > 0 {
			found = append(found, fmt.Sprintf("%s of problem in the trial battle (%s, %s)", plural(len(r.kinds), "kind"), plural(me.Timeouts, "timeout"), plural(me.Errors, "error")))
		}
		last = run
	} else {
		fmt.Fprintf(w, "\nTrial battle: not played, since the bot did not say ready.\n")
	}
	if log := last.seats[0].Log(); len(log) > 0 {
		fmt.Fprintln(w, "\nLast lines it wrote to standard error:")
		for _, l := range log[max(0, len(log)-10):] {
			fmt.Fprintf(w, "  %s\n", engine.SafeLine(l))
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("bot %s: %s", safe(command), strings.Join(found, ", "))
	}
	return nil
}

// trialShape is the trial battle's board: a Lua script's.
func (bc *botChecker) trialShape(seed uint64) battleShape {
	rounds := bc.cfg.Rules.Rounds
	if bc.checker.game != nil {
		if !bc.flags.Changed("rounds") && rounds > checkModRounds {
			rounds = checkModRounds
		}
		return battleShape{rounds: rounds}
	}
	size := bc.cfg.Arena.Size
	if !bc.flags.Changed("size") {
		size = checkSize
	}
	return battleShape{size: size, rounds: rounds, wrap: bc.cfg.Arena.Wrap, m: trialMap(size, 2, seed)}
}

// notReady reports whether a battle's bot never said ready.
func notReady(r *trialReport) bool {
	for _, k := range r.kinds {
		if strings.Contains(k.what, "not ready") {
			return true
		}
	}
	return false
}

// writeKinds prints a conformance battle's kinds of problem as the trial
// does.
func writeKinds(w io.Writer, r *trialReport) {
	for _, k := range r.kinds {
		fmt.Fprintf(w, "    %s in %s, first in round %d: %s\n", k.label, plural(k.rounds, "round"), k.first.Round, safe(k.first.Message))
		if k.line != "" {
			fmt.Fprintf(w, "      the bot wrote: %s\n", engine.SafeLine(k.line))
		}
	}
}

// botRoundRe is where a bot's problem says its round; botIndexRe an
// index into its answer.
var (
	botRoundRe = regexp.MustCompile(`^bot: round \d+: `)
	botIndexRe = regexp.MustCompile(`\[\d+\]`)
)

// botWhat is what a bot's problem says without its round (and the index
// of the answer it names), so that one mistake made every round is one
// kind.
func botWhat(what string) string {
	what = botRoundRe.ReplaceAllString(what, "bot: ")
	return botIndexRe.ReplaceAllString(what, "[…]")
}

// botLabel is a bot's kind of problem where problemLabel names a Lua
// worker's.
func botLabel(label string) string {
	if label == "worker crash" {
		return "crash"
	}
	return label
}
