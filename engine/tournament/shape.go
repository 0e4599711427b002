package tournament

import (
	"encoding/json"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/squarebattle/squarebattle/engine"
)

// A results file is decoded by encoding/json into lists of structs, and an
// element of three bytes of text ("{},") becomes a struct of a hundred
// bytes and more: a file of 21 MB of empty teams took 2.8 GB to refuse.
// So Decode first reads the file's shape, without decoding any of it:
// how many elements each list holds and how many members each element
// has. The lists are held to the bounds every tournament obeys, and each
// element must carry the members the writer always writes (an honest
// element is as long as what it decodes to, give or take), so what is
// decoded after is about the size of the file, whatever the file says.

// What the writer always writes of each kind of element: the members
// without omitempty.
const (
	resultMembers = 3 // game, seed, rounds
	teamMembers   = 8 // squares, survived, births, kills, deaths, collisions, timeouts, errors
	playerMembers = 2 // id, name
)

// fileShape is what scanFile counts in a results file.
type fileShape struct {
	players, columns, results int
	teams                     int // in all results
	mostTeams, mostValues     int // in one result, in one team
	thin                      string
}

// The kinds of container scanFile tells apart; inOther is any other.
const (
	inOther = iota
	inTop
	inParams
	inPlayers
	inPlayer
	inColumns
	inResults
	inResult
	inTeams
	inTeam
	inValues
)

// scanFile reads the shape of data, a results file. It reads the text
// once and allocates nothing but for escaped keys; for text that is not
// valid JSON the counts mean nothing, and the decoder refuses it after.
func scanFile(data []byte) (sh fileShape) {
	type container struct {
		kind    int
		arr     bool
		key     []byte // the member being read, in an object
		escaped bool
		members int
	}
	var stack []container
	// child is the kind of a container that opens at the current place.
	child := func() int {
		if len(stack) == 0 {
			return inTop
		}
		c := &stack[len(stack)-1]
		switch {
		case c.kind == inTop && isKey(c.key, c.escaped, "params"):
			return inParams
		case c.kind == inTop && isKey(c.key, c.escaped, "results"):
			return inResults
		case c.kind == inParams && isKey(c.key, c.escaped, "players"):
			return inPlayers
		case c.kind == inParams && isKey(c.key, c.escaped, "columns"):
			return inColumns
		case c.kind == inPlayers:
			return inPlayer
		case c.kind == inResults:
			return inResult
		case c.kind == inResult && isKey(c.key, c.escaped, "teams"):
			return inTeams
		case c.kind == inTeams:
			return inTeam
		case c.kind == inTeam && isKey(c.key, c.escaped, "values"):
			return inValues
		}
		return inOther
	}
	// element counts a value that begins in the container on top; object
	// says it is one. A result, a team's result and a player must be: a
	// null or a number would decode to a whole struct too.
	element := func(object bool) {
		if len(stack) == 0 || !stack[len(stack)-1].arr {
			return
		}
		what := ""
		switch stack[len(stack)-1].kind {
		case inPlayers:
			sh.players++
			what = "a player"
		case inColumns:
			sh.columns++
		case inResults:
			sh.results++
			what = "a result"
		case inTeams:
			sh.teams++
			what = "a team's result"
		}
		if what != "" && !object && sh.thin == "" {
			sh.thin = what + " that is not an object"
		}
		stack[len(stack)-1].members++
	}
	wantKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case ' ', '\t', '\n', '\r', ':', ',':
			if c == ',' && len(stack) > 0 && !stack[len(stack)-1].arr {
				wantKey = true
			}
		case '"':
			start, escaped := i+1, false
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					escaped = true
					i++
				}
			}
			if wantKey {
				t := &stack[len(stack)-1]
				t.key, t.escaped, t.members = data[start:min(i, len(data))], escaped, t.members+1
				wantKey = false
				continue
			}
			element(false)
		case '{', '[':
			element(c == '{')
			stack = append(stack, container{kind: child(), arr: c == '['})
			wantKey = c == '{'
		case '}', ']':
			if len(stack) == 0 {
				continue
			}
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			sh.closed(t.kind, t.members)
			wantKey = false
		default: // a number, true, false or null
			element(false)
			for i+1 < len(data) && !bytesEnd(data[i+1]) {
				i++
			}
		}
	}
	return sh
}

// closed notes a container of kind with n members or elements.
func (sh *fileShape) closed(kind, n int) {
	need, what := 0, ""
	switch kind {
	case inResult:
		need, what = resultMembers, "a result"
	case inTeam:
		need, what = teamMembers, "a team's result"
	case inPlayer:
		need, what = playerMembers, "a player"
	case inTeams:
		sh.mostTeams = max(sh.mostTeams, n)
	case inValues:
		sh.mostValues = max(sh.mostValues, n)
	}
	if n < need && sh.thin == "" {
		sh.thin = fmt.Sprintf("%s with %d members (it has at least %d)", what, n, need)
	}
}

func bytesEnd(c byte) bool {
	return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// isKey reports whether raw, a key's text between its quotes, names the
// field name as encoding/json matches keys: exactly, or equal once case
// is folded the way it folds (so "Results" and "\u0072esults" name it).
func isKey(raw []byte, escaped bool, name string) bool {
	if !escaped && string(raw) == name {
		return true
	}
	if len(raw) > 8*len(name) { // longer than name's letters, each escaped
		return false
	}
	key := string(raw)
	if escaped {
		if json.Unmarshal([]byte(`"`+key+`"`), &key) != nil {
			return false
		}
	}
	if utf8.RuneCountInString(key) != len(name) {
		return false
	}
	i := 0
	for _, r := range key {
		if unicode.ToUpper(unicode.ToLower(r)) != unicode.ToUpper(rune(name[i])) {
			return false
		}
		i++
	}
	return true
}

// check holds the shape to what any tournament's file can hold.
func (sh *fileShape) check() error {
	switch {
	case sh.thin != "":
		return fmt.Errorf("%s: not what this program writes", sh.thin)
	case sh.players > MaxSeats:
		return fmt.Errorf("%d players (a tournament seats at most %d)", sh.players, MaxSeats)
	case sh.columns > engine.MaxColumns || sh.mostValues > engine.MaxColumns:
		return fmt.Errorf("%d score columns (at most %d)", max(sh.columns, sh.mostValues), engine.MaxColumns)
	case sh.results > MaxBattles:
		return fmt.Errorf("%d results (a tournament plays at most %d battles)", sh.results, MaxBattles)
	case sh.teams > MaxSeats:
		return fmt.Errorf("%d teams' results (a tournament seats at most %d)", sh.teams, MaxSeats)
	}
	return nil
}
