package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/spf13/pflag"

	"github.com/squarebattle/squarebattle/config"
	"github.com/squarebattle/squarebattle/luabind"
	"github.com/squarebattle/squarebattle/luabind/battle"
	"github.com/squarebattle/squarebattle/tui"
)

// playCommand opens the terminal UI: the lobby, or straight into a battle
// when players are named.
func playCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("play", &c)
	paused := fs.Bool("paused", false, "start battles paused")
	record := fs.String("record", "", "write each battle's replay when it ends or is left: FILE, then FILE-2, ... (see 'squarebattle replay')")
	game := fs.String("game", "", "play a rule mod: a folder of the scripts folder with a rules.lua (e.g. paint); the lobby offers every game")
	mapFile := fs.String("map", "", mapUsage+"; one PLAYER for each team of the map")
	stats := fs.Bool("stats", false, "on quitting, print the frames drawn, their rate and the rounds played")
	humanFlag := fs.Bool("human", false, "play a team yourself, at the keys, against the PLAYERs (team 1 is yours; see 'Playing as a human' in README.md)")
	bf := addBotFlags(fs)
	helpOn(fs, stdout, "usage: squarebattle play [flags] [PLAYER...]\n\nOpens the terminal UI. With PLAYERs (or --bot) the battle starts at once (with\n--map, one PLAYER a team of the map); without, the lobby opens, listing the\nLua players and the bots (.bot files, --bot). With --human you play the first\nteam yourself.")
	cfg, cat, err := parseAndLoad(fs, &c, args)
	if err != nil {
		return err
	}
	if err := outputPath("--record", *record); err != nil {
		return err
	}
	src := newPlaySource(cfg, cat, fs, &c)
	if src.flagBots, err = bf.specs(); err != nil {
		return err
	}
	src.noTimeout = bf.noTimeout
	// PLAYERs or --bot start a battle at once, with the Lua starting
	// players when only --bot is given (as run does).
	named := fs.NArg() > 0 || len(bf.commands) > 0
	var start *tui.Setup
	if *game != "" {
		// The game named is checked strictly: an option it does not
		// declare is an error here, though the lobby's other games
		// ignore options that are not theirs.
		if _, _, err := loadGame(fs, &c, *game); err != nil {
			return err
		}
		gcfg, g, err := src.game(*game)
		if err != nil {
			return err
		}
		if named || *humanFlag {
			su := tui.Setup{Game: *game, Size: gcfg.Arena.Size, Rounds: gcfg.Rules.Rounds, Seed: battle.Seed(gcfg)}
			if g.Info.Protocol != luabind.SquareBattleProtocol {
				su.Size = modSize(fs, gcfg, g) // 0: the rules choose, as run's do
			}
			players, folder := g.Catalog, *game
			if g.Info.Protocol == luabind.SquareBattleProtocol {
				players, folder = cat, "" // rules in Lua for SquareBattle's own players
			}
			if named {
				teams, err := pickTeams(cfg, players, folder, fs.Args(), bf)
				if err != nil {
					return err
				}
				su.Players = teamIDs(teams)
			}
			start = &su
		}
	} else if named || *humanFlag {
		if !named {
			return bad(errors.New("--human needs the PLAYERs to play against (or pick Human in the lobby)"))
		}
		teams, err := pickTeams(cfg, cat, "", fs.Args(), bf)
		if err != nil {
			return err
		}
		su := tui.Setup{Size: cfg.Arena.Size, Rounds: cfg.Rules.Rounds, Seed: battle.Seed(cfg), Players: teamIDs(teams)}
		start = &su
	}
	if *humanFlag {
		if !src.HumanGame(*game) {
			return bad(fmt.Errorf("--human: %s cannot be played at the keys (SquareBattle, snake and paint can)", *game))
		}
		start.Players = append([]string{tui.HumanPlayer}, start.Players...)
		if err := src.checkHuman(*game); err != nil {
			return bad(err)
		}
	}
	if *mapFile != "" {
		if err := startOnMap(fs, src, *game, start, *mapFile); err != nil {
			return err
		}
	}
	screen, err := newScreen()
	if err != nil {
		return err
	}
	// w saves into tui.replays, or the user's data folder; with neither a
	// home folder nor XDG_DATA_HOME, into the current folder.
	replays, _ := cfg.ReplaysDir()
	app := tui.New(tui.Options{Screen: screen, Source: src, Settings: settingsOf(cfg), Start: start, Game: *game, Paused: *paused, Record: *record, Replays: replays})
	if dir := diskScripts(cfg); dir != "" {
		stop, err := watchScripts(dir, func() {
			if err := src.reload(); err == nil {
				app.Reload()
			}
		})
		if err == nil {
			defer stop()
		}
	}
	err = terminalError(app.Run())
	if *stats {
		fmt.Fprintln(stdout, statsLine(app.Stats()))
	}
	return err
}

// startOnMap makes the battle named on the command line start from the
// arena of the --map file, and tries it before the screen opens, so that a
// map that does not fit the players is a one-line error naming the file.
func startOnMap(fs *pflag.FlagSet, src *playSource, game string, su *tui.Setup, file string) error {
	cfg := src.cfg
	if game != "" {
		gcfg, g, err := src.game(game)
		if err != nil {
			return err
		}
		if g.Info.Protocol != luabind.SquareBattleProtocol {
			return errMapMod
		}
		cfg = gcfg
	}
	if su == nil {
		return bad(fmt.Errorf("--map %s needs the PLAYERs, one for each team of the map", file))
	}
	m, err := readMapFlag(fs, cfg, file)
	if err != nil {
		return err
	}
	su.Map, su.MapFile, su.Size = m, file, m.Size
	b, err := src.NewBattle(*su)
	if err != nil {
		return bad(err)
	}
	b.Close()
	return nil
}

// statsLine is what play --stats prints once the terminal is restored.
func statsLine(s tui.Stats) string {
	return fmt.Sprintf("drew %s in %.2f s (%.1f frames/s from the first to the last, cap %d); %s played",
		counted(s.Frames, "frame"), s.Elapsed.Seconds(), s.Rate(), s.FPS, counted(s.Rounds, "round"))
}

// counted writes n things, n with commas between groups of three digits.
func counted(n int, thing string) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if n != 1 {
		thing += "s"
	}
	return s + " " + thing
}

func settingsOf(cfg config.Config) tui.Settings {
	return tui.Settings{
		Size:      cfg.Arena.Size,
		Rounds:    cfg.Rules.Rounds,
		TimeLimit: time.Duration(cfg.Rules.TimeLimit) * time.Second,
		Seed:      uint64(cfg.Seed),
		Speed:     cfg.TUI.Speed,
		FPS:       cfg.TUI.FPS,
		Rewind:    rewindOf(cfg),
		HumanPace: cfg.Human.Pace,
		SteerPace: cfg.Human.SteerPace,
		Countdown: time.Duration(cfg.Human.Countdown) * time.Second,
	}
}

// rewindOf maps tui.rewind (0 = none) onto tui.Settings (0 = the default).
func rewindOf(cfg config.Config) int {
	if cfg.TUI.Rewind == 0 {
		return -1
	}
	return cfg.TUI.Rewind
}

// newScreen opens the terminal. tcell knows the common terminals without
// asking infocmp; for a $TERM it does not know (and no infocmp to ask), it
// falls back to xterm-256color, which nearly every terminal emulates.
func newScreen() (tcell.Screen, error) {
	s, err := tcell.NewScreen()
	if err == nil {
		return s, nil
	}
	unknown := bad(fmt.Errorf("TERM=%q: no terminal description for it on this machine; set TERM (xterm-256color, say), or use squarebattle run, which needs no terminal", os.Getenv("TERM")))
	if !errors.Is(err, terminfo.ErrTermNotFound) {
		// tcell asked infocmp, which knows no such TERM either
		return nil, unknown
	}
	ti, lerr := terminfo.LookupTerminfo("xterm-256color")
	if lerr != nil {
		return nil, unknown
	}
	return tcell.NewTerminfoScreenFromTtyTerminfo(nil, ti)
}

// terminalError turns a screen that could not start (no terminal: stdin
// is not one, or there is no controlling tty) into one line of bad input.
func terminalError(err error) error {
	var te *tui.TerminalError
	if errors.As(err, &te) {
		return bad(fmt.Errorf("no terminal to draw on (%v); squarebattle run plays without one", te.Err))
	}
	return err
}
