package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// TestGlyphFallbacks: every character outside ASCII in a string or rune
// literal of the package's code (comments and tests aside) has a
// one-column ASCII stand-in in runeFallbacks, so a terminal without UTF-8
// never shows "?" for the UI's own texts.
func TestGlyphFallbacks(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	seen := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
				return true
			}
			var text string
			if lit.Kind == token.CHAR {
				r, _, _, err := strconv.UnquoteChar(strings.Trim(lit.Value, "'"), '\'')
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
				}
				text = string(r)
			} else if text, err = strconv.Unquote(lit.Value); err != nil {
				t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
			}
			for _, r := range text {
				if r < utf8.RuneSelf {
					continue
				}
				seen++
				if _, ok := runeFallbacks[r]; !ok {
					t.Errorf("%s: %q has no ASCII fallback in runeFallbacks", fset.Position(lit.Pos()), r)
				}
			}
			return true
		})
	}
	if seen == 0 {
		t.Fatal("found no character outside ASCII: the scan is broken")
	}
	for r, sub := range runeFallbacks {
		if len(sub) != 1 || sub[0] < ' ' || sub[0] > '~' {
			t.Errorf("%q falls back to %q: want one printable ASCII character", r, sub)
		}
		if uniseg.StringWidth(string(r)) != 1 {
			t.Errorf("%q is %d columns wide; its stand-in is one", r, uniseg.StringWidth(string(r)))
		}
	}
}
