package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// playersCommand lists every script found and what is wrong with the broken ones.
func playersCommand(args []string, stdout, stderr io.Writer) error {
	var c commonFlags
	fs := newFlagSet("players", &c)
	_, cat, err := parseAndLoad(fs, &c, args)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tFILE\tSTATUS")
	for _, cls := range cat.All {
		status := "replicated into only"
		switch {
		case cls.Err != nil:
			status = "error: " + cls.Err.Error()
		case cls.Name != "":
			status = "starting player"
		}
		name := cls.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", safe(cls.ID), safe(name), safe(cls.File), safe(status))
	}
	return tw.Flush()
}
