package worker

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// ServeOptions configure the worker side.
type ServeOptions struct {
	// Extra are globals added to every team VM. Only tests set them, to
	// field builtins the sandbox must never offer (see luabind.TeamOptions).
	Extra []luabind.Global
	// Orphaned is called from the watchdog goroutine when the parent's end
	// of the request pipe closes while a request is being served; the
	// subcommand exits the process there, so a worker stuck in a call does
	// not outlive its parent.
	Orphaned func()
}

// keptCatalogs is how many catalogs a worker keeps compiled, oldest
// dropped first. The parent mirrors this list to know which it must send.
const keptCatalogs = 4

// server is the state of one worker: the catalogs it compiled and the
// team it plays, or, for a Group, the teams it plays in its slots.
type server struct {
	o        ServeOptions
	catalogs []servedCatalog
	*slot               // the team the request in hand is about
	solo     slot       // the team of a worker a Seat uses alone
	slots    slotMap    // the teams of a worker a Group uses
	rules    *rulesHost // a battle's rules, when this worker plays them
	turn     engine.Turn
	settle   engine.Settlement
	e        enc
	batchOut enc         // a batch's answer (batch_serve.go)
	parts    []batchPart // a batch's requests, reused
}

// slot is one team a worker plays: its Lua state and what it has been told.
type slot struct {
	team    *luabind.Team
	mod     *modTeam // what a rule mod's team keeps between calls
	facts   engine.Facts
	printed int64
}

type servedCatalog struct {
	hash [32]byte
	cat  *luabind.Catalog
}

// Serve answers requests read from in on out until in closes (a nil
// error) or breaks. It is the whole life of a worker process.
func Serve(in io.Reader, out io.Writer, o ServeOptions) error {
	s := &server{o: o}
	s.slot = &s.solo
	// The watchdog: Serve reads a request only between calls, so a worker
	// busy in a call would not see its parent go; watchHangup notices the
	// pipe's far end closing whatever the worker is doing.
	if f, ok := in.(interface{ Fd() uintptr }); ok && o.Orphaned != nil {
		watchHangup(int(f.Fd()), o.Orphaned)
	}
	r := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	idler, _ := in.(interface{ setIdle(bool) })
	var f []byte
	var err error
	for {
		if idler != nil {
			idler.setIdle(s.idle())
		}
		f, err = readFrame(r, f, maxFrameIn)
		if err != nil {
			break
		}
		reply := s.handle(f)
		if _, err := w.Write(reply); err != nil {
			return err
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
	s.endTeam()
	s.slots.endAll()
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// idle reports that the worker holds no team, rules or slot: its next
// request may be long in coming (see rawFile).
func (s *server) idle() bool {
	return s.solo.team == nil && s.rules == nil && len(s.slots) == 0
}

// handle answers one request.
func (s *server) handle(f []byte) []byte {
	d := &dec{b: f}
	var err error
	switch d.byte() {
	case kindCatalog:
		err = s.loadCatalog(d)
	case kindStart:
		err = s.start(d)
	case kindTurn:
		return s.doTurn(d)
	case kindSettle:
		return s.doSettle(d)
	case kindRulesStart:
		err = s.startRules(d)
	case kindRulesCall:
		return s.rulesCall(d)
	case kindModCall:
		return s.modCall(d)
	case kindBatch:
		return s.batch(d)
	case kindTopLevels:
		return s.readTopLevels(d)
	case kindEnd:
		err = d.end()
		if err == nil {
			s.endTeam()
			s.e.start(kindOK)
			s.e.int(int(cpuMillis()))
			return s.e.finish()
		}
	default:
		err = errMalformed
	}
	return s.answer(err)
}

func (s *server) answer(err error) []byte {
	if err != nil {
		s.e.start(kindFail)
		s.e.str(err.Error())
	} else {
		s.e.start(kindOK)
	}
	return s.e.finish()
}

func (s *server) loadCatalog(d *dec) error {
	var hash [32]byte
	copy(hash[:], d.b)
	sum := sha256.Sum256(d.b[min(32, len(d.b)):])
	d.b = d.b[min(32, len(d.b)):]
	if sum != hash {
		return fmt.Errorf("catalog: hash mismatch")
	}
	src := getSource(d)
	want := getStrings(d)
	src.Require = d.str()
	if err := d.end(); err != nil {
		return err
	}
	cat, err := luabind.LoadCatalogSource(src)
	if err != nil {
		return err
	}
	if got := cat.Classes(); !slices.Equal(got, want) {
		return fmt.Errorf("catalog: the worker found classes %q, the parent %q", got, want)
	}
	if len(s.catalogs) == keptCatalogs {
		s.catalogs = s.catalogs[1:]
	}
	s.catalogs = append(s.catalogs, servedCatalog{hash, cat})
	return nil
}

// catalogNamed reads a catalog's hash and returns the catalog, nil if this
// worker does not hold it (the caller refuses the request after decoding
// it whole), or false for a request too short to hold a hash.
func (s *server) catalogNamed(d *dec) (*luabind.Catalog, bool) {
	var hash [32]byte
	if len(d.b) < 32 {
		return nil, false
	}
	copy(hash[:], d.b)
	d.b = d.b[32:]
	for _, c := range s.catalogs {
		if c.hash == hash {
			return c.cat, true
		}
	}
	return nil, true
}

func (s *server) start(d *dec) error {
	cat, ok := s.catalogNamed(d)
	if !ok {
		return errMalformed
	}
	o := luabind.TeamOptions{Catalog: cat, Index: d.int(0, maxTeams), Seed: d.u(), Size: d.int(0, 1<<20), Teams: d.int(0, maxTeams)}
	o.Killers = getStrings(d)
	o.Entry = d.str()
	o.Player = engine.ClassID(d.int(-1, maxClasses))
	o.Extra = s.o.Extra
	if err := d.end(); err != nil {
		return err
	}
	if cat == nil {
		return errors.New("start: unknown catalog")
	}
	s.endTeam()
	*s.slot = slot{team: luabind.NewTeam(o)}
	return nil
}

// endTeam closes the team of the slot in hand and, for a worker used
// alone, the rules it plays.
func (s *server) endTeam() {
	if s.team != nil {
		s.team.Close()
		s.team = nil
	}
	if s.slot != &s.solo {
		return
	}
	if s.rules != nil {
		s.rules.close()
		s.rules = nil
	}
}

func (s *server) doTurn(d *dec) []byte {
	if s.team == nil {
		return s.answer(errors.New("turn: no team"))
	}
	getFacts(d, &s.facts)
	t := &s.turn
	getSquares(d, t, len(s.facts.Classes))
	if err := d.end(); err != nil {
		return s.answer(err)
	}
	t.Team, t.Facts = 0, &s.facts
	t.Report = engine.Report{}
	s.team.Turn(t)
	e := &s.e
	e.start(kindOK)
	putIntents(e, t.Intents)
	putReport(e, &t.Report)
	s.putLines()
	return e.finish()
}

func (s *server) doSettle(d *dec) []byte {
	if s.team == nil {
		return s.answer(errors.New("settle: no team"))
	}
	getFacts(d, &s.facts)
	st := &s.settle
	classes := int64(len(s.facts.Classes))
	st.Births = st.Births[:0]
	for range d.count(5) {
		st.Births = append(st.Births, engine.Birth{
			Parent: engine.SquareID(d.int(0, 1<<31-1)), Child: engine.SquareID(d.int(0, 1<<31-1)),
			Class: engine.ClassID(d.int(0, classes-1)), Row: d.int(0, 1<<20), Col: d.int(0, 1<<20),
		})
	}
	st.Deaths = st.Deaths[:0]
	for range d.count(6) {
		st.Deaths = append(st.Deaths, engine.Death{
			Square: engine.SquareID(d.int(0, 1<<31-1)), Class: engine.ClassID(d.int(0, classes-1)),
			Row: d.int(0, 1<<20), Col: d.int(0, 1<<20), Killer: d.int(0, int64(len(s.facts.Players))-1),
			Collision: d.bool(),
		})
	}
	if err := d.end(); err != nil {
		return s.answer(err)
	}
	st.Facts = &s.facts
	st.Report = engine.Report{}
	s.team.Settle(st)
	s.e.start(kindOK)
	putReport(&s.e, &st.Report)
	s.putLines()
	return s.e.finish()
}

// putLines sends what the team printed since the last answer.
func (s *server) putLines() {
	lines, total := s.team.Printed(s.printed)
	s.printed = total
	if len(lines) > maxLines {
		lines = lines[len(lines)-maxLines:]
	}
	putStrings(&s.e, lines)
}
