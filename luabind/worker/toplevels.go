package worker

import (
	"errors"
	"fmt"
	"time"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// Reading a folder's top levels behind the wall (luabind.TopLevelReader):
//
//	toplevels  source          → ok count (id name victory defeat err)…
//
// The worker builds the catalog as the parent would and reports every
// class of it.
const kindTopLevels byte = 0x70

// putSource and getSource carry a catalog's source: dir entry limits×5
// files(name data)….
func putSource(e *enc, src luabind.CatalogSource) {
	e.str(src.Dir)
	e.str(src.Entry)
	putLimits(e, src.Limits)
	e.u(uint64(len(src.Files)))
	for _, f := range src.Files {
		e.str(f.Name)
		e.bytes(f.Data)
	}
}

func getSource(d *dec) luabind.CatalogSource {
	src := luabind.CatalogSource{Dir: d.str(), Entry: d.str(), Limits: getLimits(d)}
	for range d.count(2) {
		src.Files = append(src.Files, luabind.SourceFile{Name: d.str(), Data: d.bytes()})
	}
	return src
}

// readTopLevels answers a toplevels request.
func (s *server) readTopLevels(d *dec) []byte {
	src := getSource(d)
	src.Require = d.str()
	if err := d.end(); err != nil {
		return s.answer(err)
	}
	cat, err := luabind.LoadCatalogSource(src, s.o.Extra...)
	if err != nil {
		return s.answer(err)
	}
	e := &s.e
	e.start(kindOK)
	e.u(uint64(len(cat.All)))
	for _, cls := range cat.All {
		e.str(cls.ID)
		e.str(cls.Name)
		e.str(cls.Victory)
		e.str(cls.Defeat)
		msg := ""
		if cls.Err != nil {
			msg = cls.Err.Error()
		}
		e.str(msg)
	}
	return e.finish()
}

// ReadTopLevels runs the top levels of src's scripts in a fresh worker
// process (a luabind.TopLevelReader). When that worker dies or runs past
// its wall clock, each script is read again alone, each in a worker of
// its own, so that the one that killed it is the only one broken.
func (p *Pool) ReadTopLevels(src luabind.CatalogSource) ([]luabind.TopLevel, error) {
	out, err := p.readTopLevels(src)
	if err == nil || len(src.Files) < 2 {
		return out, err
	}
	out = out[:0]
	for _, f := range src.Files {
		one := src
		one.Files = []luabind.SourceFile{f}
		got, err := p.readTopLevels(one)
		if err != nil {
			id := f.Name[:len(f.Name)-len(".lua")]
			got = []luabind.TopLevel{{ID: id, Err: fmt.Sprintf("%s/%s: its top level %s", src.Dir, engine.SafeText(f.Name), err)}}
		}
		out = append(out, got...)
	}
	return out, nil
}

// readTopLevels is one toplevels request to a worker started for it and
// stopped after: what the scripts did to it goes with it.
func (p *Pool) readTopLevels(src luabind.CatalogSource) ([]luabind.TopLevel, error) {
	w, err := p.startKept(p.o.MemoryMiB, 0)
	if err != nil {
		return nil, err
	}
	defer p.discard(w)
	var e enc
	e.start(kindTopLevels)
	putSource(&e, src)
	e.str(src.Require)
	timeout := p.o.CallTimeout + time.Duration(len(src.Files)+1)*time.Duration(src.Limits.Instructions)*p.o.PerInstruction
	kind, body, err := w.call(e.finish(), replyBase+len(src.Files)*(4*luabind.MaxSpeechBytes), timeout)
	switch {
	case errors.Is(err, errTimeout):
		return nil, errors.New("ran past its wall-clock bound in a worker process, which was killed (isolation.call_timeout)")
	case errors.Is(err, errMalformed):
		return nil, errors.New("made its worker process send a malformed answer")
	case err != nil:
		return nil, fmt.Errorf("killed its worker process: %s", w.cause())
	}
	d := &dec{b: body}
	if kind != kindOK {
		msg := d.str()
		return nil, fmt.Errorf("was refused by its worker process: %s", engine.SafeText(msg))
	}
	var out []luabind.TopLevel
	for range d.count(5) {
		out = append(out, luabind.TopLevel{ID: d.str(), Name: d.str(), Victory: d.str(), Defeat: d.str(), Err: d.str()})
	}
	if err := d.end(); err != nil {
		return nil, errors.New("made its worker process send a malformed answer")
	}
	return out, nil
}
