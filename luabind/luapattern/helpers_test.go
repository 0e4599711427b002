package luapattern

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// bigBudget is a step budget no test case comes near.
const bigBudget = int64(1) << 40

// luaFind runs string.find(subject, pattern, init+1) the way Lua 5.1 would
// and renders the result like the Lua test harness does: "nil", "error: msg",
// or "s e" (1-based, inclusive) followed by the captures, a string capture
// quoted with strconv.Quote and a position capture as a bare number.
func luaFind(pattern, subject string, init int) string {
	return findQ(pattern, subject, init, strconv.Quote)
}

func findQ(pattern, subject string, init int, quote func(string) string) string {
	p, err := Compile(pattern)
	if err != nil {
		return "error: " + err.Error()
	}
	steps := bigBudget
	m, ok, err := p.Find(subject, init, &steps)
	if err != nil {
		return "error: " + err.Error()
	}
	if !ok {
		return "nil"
	}
	return formatMatch(subject, m, quote)
}

func formatMatch(subject string, m Match, quote func(string) string) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.Start + 1))
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(m.End))
	for _, c := range m.Captures {
		b.WriteByte(' ')
		if c.Position {
			b.WriteString(strconv.Itoa(c.Start + 1))
		} else {
			b.WriteString(quote(subject[c.Start:c.End]))
		}
	}
	return b.String()
}

// luaGsub runs string.gsub(subject, pattern, repl, max) with a string
// replacement, rendered as "quoted-result count" or "error: msg".
func luaGsub(pattern, subject, repl string, max int) string {
	return gsubQ(pattern, subject, repl, max, strconv.Quote)
}

func gsubQ(pattern, subject, repl string, max int, quote func(string) string) string {
	p, err := Compile(pattern)
	if err != nil {
		return "error: " + err.Error()
	}
	steps := bigBudget
	out, n, err := p.Gsub(nil, subject, max, &steps, func(dst []byte, m Match) ([]byte, error) {
		return Expand(dst, repl, subject, m)
	})
	if err != nil {
		return "error: " + err.Error()
	}
	return quote(string(out)) + " " + strconv.Itoa(n)
}

// luaGmatch collects every result of string.gmatch(subject, pattern): each
// match's captures (or the whole match), joined by " | ".
func luaGmatch(pattern, subject string) string {
	return gmatchQ(pattern, subject, strconv.Quote)
}

func gmatchQ(pattern, subject string, quote func(string) string) string {
	p, err := CompileGmatch(pattern)
	if err != nil {
		return "error: " + err.Error()
	}
	steps := bigBudget
	var parts []string
	for pos := 0; ; {
		m, next, ok, err := p.GmatchNext(subject, pos, &steps)
		if err != nil {
			return "error: " + err.Error()
		}
		if !ok {
			break
		}
		pos = next
		if len(m.Captures) == 0 {
			parts = append(parts, quote(subject[m.Start:m.End]))
			continue
		}
		var caps []string
		for _, c := range m.Captures {
			if c.Position {
				caps = append(caps, strconv.Itoa(c.Start+1))
			} else {
				caps = append(caps, quote(subject[c.Start:c.End]))
			}
		}
		parts = append(parts, strings.Join(caps, " "))
	}
	return strings.Join(parts, " | ")
}

// Pieces from which the differential tests build random patterns. They cover
// every construct, including malformed ones ("%" at the end, a lone "[",
// unbalanced parentheses, back-references to unknown captures).
var patternAtoms = []string{
	"a", "b", "c", "1", " ", ".", "%a", "%d", "%s", "%w", "%A", "%l", "%u", "%p",
	"%x", "%c", "%z", "%%", "%.", "%(", "%]",
	"[ab]", "[^a]", "[a-c]", "[%a1]", "[%d%s]", "[]a]", "[^]a]", "[a-]", "[-a]", "[%]]",
	"(", ")", "()", "%1", "%2", "%bab", "%b()", "%f[ab]", "%f[^a]", "%f[%s]",
	"^", "$", "*", "+", "-", "?", "a*", "b+", ".-", "a?", ".*", "[ab]*", "%a+",
	"]", "[", "%",
}

// genPattern joins 1..maxAtoms random atoms.
func genPattern(r *rand.Rand, atoms []string, maxAtoms int) string {
	var b strings.Builder
	n := 1 + r.IntN(maxAtoms)
	for i := 0; i < n; i++ {
		b.WriteString(atoms[r.IntN(len(atoms))])
	}
	return b.String()
}

// genSubject returns a random string of up to maxLen bytes from alphabet.
func genSubject(r *rand.Rand, alphabet string, maxLen int) string {
	n := r.IntN(maxLen + 1)
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}
