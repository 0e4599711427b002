package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version says which program this is and which Lua it runs: the module's
// version (or the commit it was built from) and gopher-lua's, read from
// the build information Go embeds in every binary.
func version(w io.Writer) {
	v, lua := "(devel)", "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 && v == "(devel)" {
				v = "(devel, commit " + s.Value[:12] + ")"
			}
		}
		for _, d := range bi.Deps {
			if d.Path == "github.com/yuin/gopher-lua" {
				lua = d.Version
				if d.Replace != nil {
					lua += " => " + d.Replace.Path + " " + d.Replace.Version
				}
			}
		}
	}
	fmt.Fprintf(w, "squarebattle %s\ngopher-lua %s (Lua 5.1)\n", v, lua)
}
