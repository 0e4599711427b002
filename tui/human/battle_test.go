package human

import (
	"os"
	"sync"
	"testing"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/luabind"
)

// humanBattle is a battle of a Squad (autopilot: the real Lua team of the
// human's side, flying class pilot) against a Lua sitter, on a 12×12
// torus, with two workers so teams run at once.
func humanBattle(t *testing.T, pilot string) (*engine.Battle, *Squad) {
	t.Helper()
	cat, err := luabind.LoadCatalog(luabind.CatalogOptions{FS: os.DirFS("testdata/scripts"), Dir: "scripts", Limits: luabind.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	east, err := cat.Find("east")
	if err != nil {
		t.Fatal(err)
	}
	sitter, err := cat.Find("sitter")
	if err != nil {
		t.Fatal(err)
	}
	o := engine.Options{Size: 12, Wrap: true, Rounds: 40, ReplicateRounds: 3, Seed: 7, Workers: 2, Classes: cat.Classes()}
	names := []string{"Human", sitter.DisplayName()}
	lua := func(i int) *luabind.Team {
		tm := luabind.NewTeam(luabind.TeamOptions{Catalog: cat, Index: i, Seed: o.Seed, Size: o.Size, Teams: 2, Killers: names})
		t.Cleanup(tm.Close)
		return tm
	}
	classes := ClassesOf(cat.Classes())
	p := engine.NoClass
	if pilot != "" {
		c, err := cat.Find(pilot)
		if err != nil {
			t.Fatal(err)
		}
		p = cat.ClassID(c)
	}
	q := NewSquad(SquadOptions{Autopilot: lua(0), Classes: classes, Pilot: p})
	o.Teams = []engine.TeamSetup{
		{Player: engine.Player{Class: cat.ClassID(east), Name: "Human"}, Controller: q},
		{Player: engine.Player{Class: cat.ClassID(sitter), Name: sitter.DisplayName()}, Controller: lua(1)},
	}
	b, err := engine.NewBattle(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b, q
}

// TestSquadAutopilot: the autopilot is a real Lua class in the sandbox:
// with east picked, an unordered square walks east; an order overrides it;
// clearing the order gives the square back to the autopilot.
func TestSquadAutopilot(t *testing.T) {
	b, q := humanBattle(t, "east")
	b.Step()
	at := q.State()
	b.Step()
	if st := q.State(); st.Row != at.Row || st.Col != (at.Col+1)%12 {
		t.Fatalf("autopilot east: square went from %d,%d to %d,%d", at.Row, at.Col, st.Row, st.Col)
	}
	q.Key(Rune('k')) // north, by order
	at = q.State()
	b.Step()
	if st := q.State(); st.Row != (at.Row+1)%12 || st.Col != at.Col {
		t.Fatalf("order north: square went from %d,%d to %d,%d", at.Row, at.Col, st.Row, st.Col)
	}
	snap := b.Snapshot()
	if got := snap.At(q.State().Row, q.State().Col); got != 0 {
		t.Fatalf("the cursor's cell holds team %d, want the human's 0", got)
	}
	q.Key(Rune('x'))
	q.Key(Rune('p'))
	q.Key(Rune('0')) // autopilot: wait
	at = q.State()
	b.Step()
	if st := q.State(); st.Row != at.Row || st.Col != at.Col || st.Pilot != "wait" {
		t.Fatalf("autopilot wait: square went from %d,%d to %d,%d (pilot %s)", at.Row, at.Col, st.Row, st.Col, st.Pilot)
	}
}

// TestSquadRace: keys and state reads on one goroutine while the battle
// runs its rounds on others (go test -race checks the contract).
func TestSquadRace(t *testing.T) {
	b, q := humanBattle(t, "east")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Add(1)
	go func() {
		defer wg.Done()
		script := keys("<T>lrk1ahx<B>p2mjp0X")
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			q.Key(script[i%len(script)])
			_ = q.State()
		}
	}()
	for b.Step() {
	}
	close(stop)
	wg.Wait()
}
