package ssh

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBadName is matched by every *NameError.
var ErrBadName = errors.New("bad name")

// NameError says why a user, player or replay name was refused.
type NameError struct {
	What   string // "player name", "user name", "replay id"
	Name   string // as given (shown quoted, escaped)
	Reason string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.What, quote(e.Name), e.Reason)
}

// Unwrap makes errors.Is(err, ErrBadName) true.
func (e *NameError) Unwrap() error { return ErrBadName }

// maxNameLen bounds user and player names: they become file names and
// lobby labels.
const maxNameLen = 24

// checkName accepts a player or user name as it is: 1 to 24 of a-z, 0-9,
// '_' and '-', starting with a letter or digit. Nothing else reaches the
// file system, so "..", "/", NUL, control characters and upper case (which
// would make two names one file on a case-insensitive disk) are refused
// rather than rewritten: the client learns the name it would get. The
// refusal names the actual problem (nameProblem).
func checkName(what, name string) error {
	if why := nameProblem(name); why != "" {
		return &NameError{What: what, Name: name, Reason: why}
	}
	return nil
}

// nameProblem says what is wrong with a name ("" nothing), the first of:
// empty; a character that is never allowed (named, escaped when it is not
// printable); upper case (with the lower-cased name when that one would
// do); a first character that is '-' or '_'; too long.
func nameProblem(name string) string {
	if name == "" {
		return "is empty"
	}
	upper := false
	for i, r := range name {
		switch {
		case r == utf8.RuneError && isBadByte(name[i:]):
			return fmt.Sprintf("may not hold the byte 0x%02x (not UTF-8): only a-z, 0-9, _ and -", name[i])
		case r >= 'A' && r <= 'Z':
			upper = true
		case r >= utf8.RuneSelf || !isNameByte(byte(r)):
			return fmt.Sprintf("may not hold %s: only a-z, 0-9, _ and -", describeRune(r))
		}
	}
	if upper {
		lower := strings.ToLower(name)
		if more := nameProblem(lower); more != "" {
			return "has upper case (names are lower case only) and, lower-cased, " + more
		}
		return fmt.Sprintf("has upper case: names are lower case only; use %s", quote(lower))
	}
	if name[0] == '-' || name[0] == '_' {
		return fmt.Sprintf("must start with a letter or a digit, not %s", describeRune(rune(name[0])))
	}
	if len(name) > maxNameLen {
		return fmt.Sprintf("is %d characters long: at most %d", len(name), maxNameLen)
	}
	return ""
}

// isBadByte reports whether s starts with a byte that is not UTF-8 (a
// real U+FFFD is three bytes).
func isBadByte(s string) bool {
	_, n := utf8.DecodeRuneInString(s)
	return n == 1
}

// describeRune names a character for a message: a space by its name,
// anything printable quoted, anything else escaped.
func describeRune(r rune) string {
	if r == ' ' {
		return "a space"
	}
	return strconv.QuoteRuneToGraphic(r)
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// sanitizeName turns an SSH login name into a user name: lower case,
// other characters dropped, cut to maxNameLen. It may return "" (then the
// client is asked to connect as another name).
func sanitizeName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r < utf8.RuneSelf && isNameByte(byte(r)) && (b.Len() > 0 || (r != '-' && r != '_')) {
			b.WriteRune(r)
			if b.Len() == maxNameLen {
				break
			}
		}
	}
	return b.String()
}

// checkReplayID accepts the id of a replay file: what the hall names them
// (letters, digits, '-', '_', at most 64), never a path.
func checkReplayID(id string) error {
	bad := func(reason string) error { return &NameError{What: "replay id", Name: id, Reason: reason} }
	if id == "" || len(id) > 64 {
		return bad("must be 1 to 64 characters")
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return bad("may hold only letters, digits, _ and -")
		}
	}
	return nil
}

// quote shows a client-supplied string on one line with control
// characters and invalid UTF-8 escaped, cut to 64 bytes.
func quote(s string) string {
	cut := ""
	if len(s) > 64 {
		s, cut = s[:64], "…"
	}
	return fmt.Sprintf("%+q%s", s, cut)
}
