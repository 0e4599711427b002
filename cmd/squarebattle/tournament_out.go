package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/squarebattle/squarebattle/engine/tournament"
)

// outputFlags are the flags of tournament and tournament merge that say
// where the standings and the results go.
type outputFlags struct {
	json, csv, markdown bool
	file                string
}

func addOutputFlags(fs *pflag.FlagSet) *outputFlags {
	o := &outputFlags{}
	fs.BoolVar(&o.json, "json", false, "print the standings as one JSON object")
	fs.BoolVar(&o.csv, "csv", false, "print the standings as CSV, one row per player")
	fs.BoolVar(&o.markdown, "markdown", false, "print the standings as Markdown tables")
	fs.StringVar(&o.file, "out", "", "also write the results file (the parameters and every battle's result) to FILE")
	return o
}

func (o *outputFlags) check() error {
	n := 0
	for _, set := range []bool{o.json, o.csv, o.markdown} {
		if set {
			n++
		}
	}
	if n > 1 {
		return bad(errors.New("choose one of --json, --csv and --markdown"))
	}
	return outputPath("--out", o.file)
}

// write prints the standings in the chosen format and the players'
// script problems and failed battles on stderr.
func (o *outputFlags) write(stdout, stderr io.Writer, s *tournament.Standings) error {
	s = safeStandings(s)
	reportFailures(stderr, s.Failures, s.Battles)
	for _, p := range s.Players {
		if p.Errors+p.Timeouts > 0 {
			fmt.Fprintf(stderr, "tournament: %s had %d script errors and %d timeouts in %d battles; the first: %s\n", p.Label, p.Errors, p.Timeouts, p.Battles, p.Problem)
		}
	}
	switch {
	case o.json:
		data, err := json.MarshalIndent(s, "", "  ")
		if err != nil {
			return err
		}
		_, err = stdout.Write(append(data, '\n'))
		return err
	case o.csv:
		return writeCSV(stdout, s)
	case o.markdown:
		return writeMarkdown(stdout, s)
	}
	return writeTable(stdout, s)
}

// reportFailures says once how many battles could not be played, and why
// the first one failed.
func reportFailures(w io.Writer, results []tournament.Result, total int) {
	var failed []tournament.Result
	for _, r := range results {
		if r.Error != "" {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 {
		f := failed[0]
		fmt.Fprintf(w, "tournament: %d of %d battles failed and count for nobody; the first, game %d (seed %d): %s\n", len(failed), total, f.Game, f.Seed, oneLine(errors.New(f.Error)))
	}
}

// title describes the tournament in one line.
func title(s *tournament.Standings) string {
	p := s.Params
	var what string
	switch p.Format {
	case tournament.RoundRobin:
		what = fmt.Sprintf("round robin, %d players, %d games per pair played both ways", len(p.Players), p.Games)
	case tournament.KOTH:
		what = fmt.Sprintf("king of the hill, %d players", len(p.Players))
	case tournament.Solo:
		what = fmt.Sprintf("solo, %d players, %d battles each", len(p.Players), p.Games)
	}
	if p.Game != "" {
		return fmt.Sprintf("Tournament of %s: %s, %d battles, seed %d", p.Game, what, s.Battles, p.Seed)
	}
	return fmt.Sprintf("Tournament: %s, %d battles, seed %d", what, s.Battles, p.Seed)
}

// arena describes the battles from the setup the results file carries.
func arena(s *tournament.Standings) string {
	st := s.Params.Setup
	edges := "wrapping"
	if st["arena.wrap"] == "false" {
		edges = "walled"
	}
	line := fmt.Sprintf("Arena %s×%s %s, %s rounds.", st["arena.size"], st["arena.size"], edges, st["rules.rounds"])
	if cols := s.Params.Columns; len(cols) > 0 {
		by := "A battle ranks its teams by the rules' winner, then"
		if s.Params.Format == tournament.Solo {
			by = "Players are compared seed by seed on"
		}
		line += fmt.Sprintf(" %s %s; the score columns are means per battle.", by, strings.Join(cols, ", then "))
	}
	if s.Failed > 0 {
		line += fmt.Sprintf(" %d battles failed and count for nobody.", s.Failed)
	}
	return line
}

const ratingNote = "Glicko-2 ratings (start 1500, RD 350), one rating period per round of the schedule; score counts a draw as half a win, with its Wilson 95% interval."

// standingRow is one player's line as text, shared by the table and the
// Markdown output: for a rule mod, the mean of every score column takes the
// place of squares and survived.
func standingRow(p tournament.Standing) []string {
	ci := "-"
	if p.Games() > 0 {
		ci = fmt.Sprintf("%.1f–%.1f%%", 100*p.Low, 100*p.High)
	}
	row := []string{strconv.Itoa(p.Rank), p.Label, fmt.Sprintf("%.0f", p.Rating), fmt.Sprintf("%.0f", p.RD),
		strconv.Itoa(p.Battles), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
		percent(p.Cell), ci}
	if p.MeanValues != nil {
		for _, v := range p.MeanValues {
			row = append(row, fmt.Sprintf("%.1f", v))
		}
		return row
	}
	return append(row, fmt.Sprintf("%.1f", p.MeanSquares), fmt.Sprintf("%.0f", p.MeanSurvived))
}

// standingHeader names standingRow's cells.
func standingHeader(p tournament.Params) []string {
	head := []string{"rank", "player", "rating", "RD", "battles", "wins", "draws", "losses", "score", "95% CI"}
	if len(p.Columns) > 0 {
		return append(head, p.Columns...)
	}
	return append(head, "squares", "survived")
}

func percent(c tournament.Cell) string {
	if c.Games() == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*c.Rate())
}

// matrixRows returns the pairwise table: a header of rank numbers, then
// per player its rank, name and score against each other player.
func matrixRows(s *tournament.Standings) [][]string {
	head := []string{"rank", "player"}
	for _, p := range s.Players {
		head = append(head, strconv.Itoa(p.Rank))
	}
	rows := [][]string{head}
	for i, p := range s.Players {
		row := []string{strconv.Itoa(p.Rank), p.Label}
		for j := range s.Players {
			cell := "-"
			if i != j {
				cell = percent(s.Matrix[i][j])
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return rows
}

const matrixTitle = "Score of each row against each column (draws count half):"

func writeTable(w io.Writer, s *tournament.Standings) error {
	fmt.Fprintf(w, "%s\n%s\n%s\n\n", title(s), arena(s), ratingNote)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	tabRow := func(cells []string) { fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t") }
	tabRow(standingHeader(s.Params))
	for _, p := range s.Players {
		tabRow(standingRow(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", matrixTitle)
	for _, r := range matrixRows(s) {
		tabRow(r)
	}
	return tw.Flush()
}

func writeMarkdown(w io.Writer, s *tournament.Standings) error {
	fmt.Fprintf(w, "## %s\n\n%s %s\n\n", title(s), arena(s), ratingNote)
	mdRow := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
	}
	mdTable := func(rows [][]string) {
		mdRow(rows[0])
		align := make([]string, len(rows[0]))
		for i := range align {
			align[i] = "---:"
		}
		align[1] = "---"
		fmt.Fprintf(w, "|%s|\n", strings.Join(align, "|"))
		for _, r := range rows[1:] {
			mdRow(r)
		}
	}
	rows := [][]string{standingHeader(s.Params)}
	for _, p := range s.Players {
		rows = append(rows, standingRow(p))
	}
	mdTable(rows)
	fmt.Fprintf(w, "\n%s\n\n", matrixTitle)
	mdTable(matrixRows(s))
	return nil
}

// writeCSV writes one row per player: the standing in plain numbers, then
// its score against every player ("vs LABEL", empty where they never met).
func writeCSV(w io.Writer, s *tournament.Standings) error {
	cw := csv.NewWriter(w)
	head := []string{"rank", "id", "player", "rating", "rd", "volatility", "battles", "failed", "wins", "draws", "losses",
		"score", "score_low", "score_high", "mean_squares", "mean_survived", "timeouts", "errors"}
	for _, c := range s.Params.Columns {
		head = append(head, "mean_"+c)
	}
	for _, p := range s.Players {
		head = append(head, "vs "+p.Label)
	}
	_ = cw.Write(head)
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	for i, p := range s.Players {
		row := []string{strconv.Itoa(p.Rank), p.Player.ID, p.Label, f(p.Rating, 2), f(p.RD, 2), f(p.Volatility, 6),
			strconv.Itoa(p.Battles), strconv.Itoa(p.Failed), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws), strconv.Itoa(p.Losses),
			f(p.Score, 4), f(p.Low, 4), f(p.High, 4), f(p.MeanSquares, 3), f(p.MeanSurvived, 3), strconv.Itoa(p.Timeouts), strconv.Itoa(p.Errors)}
		for _, v := range p.MeanValues {
			row = append(row, f(v, 3))
		}
		for _, c := range s.Matrix[i] {
			cell := ""
			if c.Games() > 0 {
				cell = f(c.Rate(), 4)
			}
			row = append(row, cell)
		}
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// progress shows how far a tournament is: a bar with an ETA when stderr is
// a terminal, otherwise a plain line at most once a second; and a last
// line either way. Its methods are called from one goroutine.
type progress struct {
	w           io.Writer
	bar         *progressbar.ProgressBar
	quiet       bool
	start, last time.Time
	done, total int
}

func newProgress(w io.Writer, total int, quiet bool) *progress {
	p := &progress{w: w, quiet: quiet, start: time.Now(), total: total}
	p.last = p.start
	if f, ok := w.(*os.File); ok && !quiet && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("tournament"),
			progressbar.OptionSetItsString("battles"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionFullWidth(),
			progressbar.OptionClearOnFinish(),
		)
		// The bar's clock starts at its first drawing: drawn only when the
		// first battle ended, it would divide one battle by a millisecond
		// (the "1/36, 21840 battles/s" of a fresh bar) and predict from
		// that. Drawn now, it counts from the tournament's start; the rate
		// is ours (rateNote), shown once it means something.
		_ = p.bar.RenderBlank()
	}
	return p
}

// rateNote is how fast a tournament goes, done battles in took, or ""
// while too little is known for a rate to mean anything: fewer than two
// battles, or less than two seconds.
func rateNote(done int, took time.Duration) string {
	if done < 2 || took < 2*time.Second {
		return ""
	}
	perSec := float64(done) / took.Seconds()
	if perSec >= 1 {
		return fmt.Sprintf("%.1f battles/s", perSec)
	}
	return fmt.Sprintf("%.1f battles/min", perSec*60)
}

func (p *progress) update(done, total int) {
	p.done = done
	switch {
	case p.quiet:
	case p.bar != nil:
		if rate := rateNote(done, time.Since(p.start)); rate != "" {
			p.bar.Describe("tournament, " + rate)
		}
		_ = p.bar.Set(done)
	default:
		now := time.Now()
		if now.Sub(p.last) >= time.Second && done < total {
			p.last = now
			line := fmt.Sprintf("tournament: %d/%d battles", done, total)
			if rate := rateNote(done, now.Sub(p.start)); rate != "" {
				eta := time.Duration(float64(now.Sub(p.start)) / float64(done) * float64(total-done))
				line += fmt.Sprintf(", %s, ETA %s", rate, clock(eta))
			}
			fmt.Fprintln(p.w, line)
		}
	}
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
	if p.quiet {
		return
	}
	took := time.Since(p.start)
	rate := ""
	if took > 0 && p.done > 0 {
		rate = fmt.Sprintf(" (%.1f battles/min)", float64(p.done)/took.Minutes())
	}
	fmt.Fprintf(p.w, "tournament: %d/%d battles in %s%s\n", p.done, p.total, clock(took), rate)
}

// clock formats a duration as m:ss or h:mm:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
