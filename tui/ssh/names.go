package ssh

import (
	"errors"
	"fmt"
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
// rather than rewritten: the client learns the name it would get.
func checkName(what, name string) error {
	bad := func(reason string) error { return &NameError{What: what, Name: name, Reason: reason} }
	switch {
	case name == "":
		return bad("is empty")
	case len(name) > maxNameLen:
		return bad(fmt.Sprintf("is longer than %d characters", maxNameLen))
	case !isNameByte(name[0]) || name[0] == '-' || name[0] == '_':
		return bad("must start with a letter or a digit")
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return bad("may hold only a-z, 0-9, _ and -")
		}
	}
	return nil
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
