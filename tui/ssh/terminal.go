package ssh

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// fallbackTerm is used when the client's TERM is empty or unknown: nearly
// every terminal emulates it.
const fallbackTerm = "xterm-256color"

// terminal is how one client's terminal is driven, decided from what that
// client sent (its pty request's TERM and its environment), never from
// the server's own environment.
type terminal struct {
	info  *terminfo.Terminfo // a private copy: tcell's entries are shared
	ascii bool               // the client's locale is not UTF-8
}

// tcell reads some settings from the environment of the process, for
// every screen it makes: the charset (LC_ALL, LC_CTYPE, LANG) and
// NO_COLOR, TCELL_TRUECOLOR and TCELL_ALTSCREEN. A session takes its
// terminal from its client instead (terminalFor: the terminfo entry, a
// private copy, with the client's colours; ASCII in the tty for a client
// whose locale is not UTF-8), and the server never changes its own
// environment (which its worker processes and anything else in the
// process share). What the process environment still overrides, it says
// once at start (envOverrides): run serve without those variables.

// envOverrides lists the variables of the process environment (read with
// getenv) that would override every client's terminal, as "NAME=value".
func envOverrides(getenv func(string) string) []string {
	var out []string
	for _, k := range []string{"NO_COLOR", "TCELL_TRUECOLOR", "TCELL_ALTSCREEN"} {
		v := getenv(k)
		if v == "" || (k == "TCELL_TRUECOLOR" && v != "disable") || (k == "TCELL_ALTSCREEN" && v != "disable") {
			continue
		}
		out = append(out, k+"="+v)
	}
	env := map[string]string{}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		env[k] = getenv(k)
	}
	if !utf8Locale(env) {
		for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
			if env[k] != "" {
				out = append(out, k+"="+env[k])
				break
			}
		}
	}
	return out
}

// terminalFor picks the terminfo for term (falling back to xterm-256color)
// and applies the client's environment: COLORTERM=truecolor (or a
// *-truecolor TERM) turns on 24-bit colour, NO_COLOR turns colour off, and
// a locale whose charset is not UTF-8 (LC_ALL, LC_CTYPE, LANG, in that
// order, as POSIX says) makes the session ASCII.
func terminalFor(term string, environ []string) terminal {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	var base *terminfo.Terminfo
	if term != "" && len(term) < 64 {
		base, _ = terminfo.LookupTerminfo(term)
	}
	if base == nil {
		base, _ = terminfo.LookupTerminfo(fallbackTerm)
	}
	ti := *base
	switch env["COLORTERM"] {
	case "truecolor", "24bit", "24-bit":
		ti.TrueColor = true
	}
	if ti.TrueColor && ti.SetFgRGB == "" {
		ti.SetFgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%dm"
		ti.SetBgRGB = "\x1b[48;2;%p1%d;%p2%d;%p3%dm"
		ti.SetFgBgRGB = "\x1b[38;2;%p1%d;%p2%d;%p3%d;48;2;%p4%d;%p5%d;%p6%dm"
	}
	if !ti.TrueColor {
		ti.SetFgRGB, ti.SetBgRGB, ti.SetFgBgRGB = "", "", ""
	}
	if _, ok := env["NO_COLOR"]; ok {
		ti.Colors = 0
		ti.SetFg, ti.SetBg, ti.SetFgBg = "", "", ""
		ti.SetFgRGB, ti.SetBgRGB, ti.SetFgBgRGB = "", "", ""
	}
	return terminal{info: &ti, ascii: !utf8Locale(env)}
}

func utf8Locale(env map[string]string) bool {
	locale := env["LC_ALL"]
	if locale == "" {
		locale = env["LC_CTYPE"]
	}
	if locale == "" {
		locale = env["LANG"]
	}
	switch {
	case locale == "":
		return true // most clients send no locale at all; assume UTF-8
	case locale == "C" || locale == "POSIX":
		return false
	}
	_, cs, ok := strings.Cut(strings.SplitN(locale, "@", 2)[0], ".")
	if !ok {
		return true
	}
	cs = strings.ToLower(strings.ReplaceAll(cs, "-", ""))
	return cs == "utf8"
}

// newScreen makes a tcell screen for a session (not yet initialised). A
// client whose locale is not UTF-8 gets a screen that says it shows ASCII
// only (asciiScreen), so that the UI draws with its ASCII glyphs (the
// arena a digit a square, ASCII sparklines and plots) rather than with
// characters its tty would turn into '?'.
func (tm terminal) newScreen(t tcell.Tty) (tcell.Screen, error) {
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(t, tm.info)
	if err != nil || !tm.ascii {
		return s, err
	}
	return asciiScreen{s}, nil
}

// asciiScreen is a screen whose client shows ASCII only: tcell's own
// charset is the process's, so tcell would say it shows anything.
type asciiScreen struct{ tcell.Screen }

// CanDisplay is true for ASCII (and, asked so, for what has a fallback).
func (s asciiScreen) CanDisplay(r rune, checkFallbacks bool) bool {
	return r < utf8.RuneSelf || (checkFallbacks && s.Screen.CanDisplay(r, true))
}

// Lock and Unlock are the screen's own (tui's shared pictures write beside
// tcell under its lock).
func (s asciiScreen) Lock()   { s.Screen.(sync.Locker).Lock() }
func (s asciiScreen) Unlock() { s.Screen.(sync.Locker).Unlock() }
