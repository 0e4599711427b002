package engine

import "fmt"

// A stage is one named step of resolving a round. The SquareBattle rules are
// the stages below, run in order after every team has answered; keeping them
// as a list makes the order of the rules visible in one place.
type stage struct {
	name string
	run  func(*Battle)
}

var squareBattleStages = []stage{
	{"apply intents: moves, births, attacks", (*Battle).stageIntents},
	{"attacked cells kill", (*Battle).stageAttacked},
	{"shared cells kill", (*Battle).stageShared},
	{"bury the dead", (*Battle).stageBury},
}

func (b *Battle) resolve() {
	for t := range b.teams {
		s := &b.teams[t].settlement
		s.Births = s.Births[:0]
		s.Deaths = s.Deaths[:0]
		s.Report.reset()
	}
	for _, s := range squareBattleStages {
		s.run(b)
	}
}

// stageIntents applies every answer simultaneously: movers get their end
// cell, replicating squares create their child in the target cell (both then
// sit still), and attacks mark their target cell. Squares are visited in
// ascending id order, so children get ids in the order of their parents.
func (b *Battle) stageIntents() {
	b.attacks = b.attacks[:0]
	b.born = b.born[:0]
	stamp := int32(b.round)
	busy := int32(b.opts.ReplicateRounds)
	for _, id := range b.live {
		sq := &b.squares[id]
		sq.dest = sq.cell
		sq.next = -1
		sq.dying = false
		if sq.turn < 0 {
			continue
		}
		team := int(sq.team)
		in := b.teams[team].turn.Intents[sq.turn]
		switch in.Fault {
		case FaultTimeout:
			b.stats[team].Timeouts++
			continue
		case FaultError:
			b.stats[team].Errors++
			continue
		}
		if in.Become != NoClass {
			if int(in.Become) >= len(b.opts.Classes) || in.Become < 0 {
				b.invalid(team, id, sq.class, fmt.Sprintf("cannot become class %d", in.Become))
				continue
			}
			sq.class = in.Become
		}
		if in.Action == Wait {
			continue
		}
		if !in.Dir.Valid() {
			b.invalid(team, id, sq.class, fmt.Sprintf("%s in direction %d", in.Action, in.Dir))
			continue
		}
		target := b.nbr[int(sq.cell)*8+int(in.Dir)]
		if target < 0 { // beyond a wall: nothing happens
			continue
		}
		switch in.Action {
		case Move:
			sq.dest = target
		case Attack:
			if b.attackStamp[target] != stamp {
				b.attackStamp[target] = stamp
				b.attackHead[target] = -1
			}
			b.attacks = append(b.attacks, attack{team: sq.team, next: b.attackHead[target]})
			b.attackHead[target] = int32(len(b.attacks) - 1)
		case Replicate:
			if in.Child < 0 || int(in.Child) >= len(b.opts.Classes) {
				b.invalid(team, id, sq.class, fmt.Sprintf("cannot replicate into class %d", in.Child))
				continue
			}
			child := b.spawn(team, in.Child, target, busy)
			sq = &b.squares[id] // spawn may have moved the slice
			sq.busy = busy
			b.born = append(b.born, child)
			b.stats[team].Births++
			b.stats[team].Squares++
			b.teams[team].settlement.Births = append(b.teams[team].settlement.Births, Birth{
				Parent: id, Child: child, Class: in.Child, Row: int(target) / b.size, Col: int(target) % b.size,
			})
		default:
			b.invalid(team, id, sq.class, fmt.Sprintf("unknown action %d", in.Action))
		}
	}
	b.live = append(b.live, b.born...)
}

// invalid counts an answer the engine itself could not carry out; a
// well-behaved controller never produces one.
func (b *Battle) invalid(team int, id SquareID, class ClassID, msg string) {
	b.stats[team].Errors++
	b.problems.add(Problem{Round: b.round, Team: team, Class: class, Square: id, Kind: FaultError, Message: "invalid intent: " + msg})
}

// stageAttacked kills every square standing at the end of the round in a
// cell that was attacked, whichever team attacked it.
func (b *Battle) stageAttacked() {
	stamp := int32(b.round)
	for _, id := range b.live {
		sq := &b.squares[id]
		if b.attackStamp[sq.dest] != stamp {
			continue
		}
		b.candidates = b.candidates[:0]
		for a := b.attackHead[sq.dest]; a >= 0; a = b.attacks[a].next {
			b.addCandidate(int(b.attacks[a].team))
		}
		b.kill(id, false, false)
	}
}

// stageShared kills every square that ends the round in a cell holding two
// or more squares. Squares already killed by an attack are not counted again.
func (b *Battle) stageShared() {
	stamp := int32(b.round)
	for _, id := range b.live {
		sq := &b.squares[id]
		if sq.dying {
			continue
		}
		if b.cellStamp[sq.dest] != stamp {
			b.cellStamp[sq.dest] = stamp
			b.cellHead[sq.dest] = -1
		}
		sq.next = b.cellHead[sq.dest]
		b.cellHead[sq.dest] = int32(id)
	}
	for _, id := range b.live {
		sq := &b.squares[id]
		if sq.dying || (sq.next < 0 && b.cellHead[sq.dest] == int32(id)) {
			continue // alone in its cell
		}
		b.candidates = b.candidates[:0]
		ownTeam := false
		for o := b.cellHead[sq.dest]; o >= 0; o = b.squares[o].next {
			if SquareID(o) == id {
				continue
			}
			other := int(b.squares[o].team)
			if other == int(sq.team) {
				ownTeam = true
			}
			b.addCandidate(other)
		}
		b.kill(id, true, ownTeam)
	}
}

// addCandidate keeps the candidate killer teams distinct and ascending, so a
// seeded pick among them does not depend on the order they were found in.
func (b *Battle) addCandidate(team int) {
	i := 0
	for i < len(b.candidates) && b.candidates[i] < team {
		i++
	}
	if i < len(b.candidates) && b.candidates[i] == team {
		return
	}
	b.candidates = append(b.candidates, 0)
	copy(b.candidates[i+1:], b.candidates[i:])
	b.candidates[i] = team
}

// kill marks a square as dying and credits the killer picked from
// b.candidates. The seeded killer stream is drawn from only when there is a
// real choice.
func (b *Battle) kill(id SquareID, collision, ownTeam bool) {
	killer := b.candidates[0]
	if len(b.candidates) > 1 {
		killer = b.candidates[b.killers.IntN(len(b.candidates))]
	}
	b.die(id, killer, collision, collision && ownTeam)
}

// die marks a square as dying, counts it and tells its team.
func (b *Battle) die(id SquareID, killer int, collision, own bool) {
	sq := &b.squares[id]
	sq.dying = true
	team := int(sq.team)
	st := &b.stats[team]
	st.Deaths++
	st.Squares--
	if own {
		st.Collisions++
	}
	if killer != team {
		b.stats[killer].Kills++
	}
	b.teams[team].settlement.Deaths = append(b.teams[team].settlement.Deaths, Death{
		Square: id, Class: sq.class, Row: int(sq.dest) / b.size, Col: int(sq.dest) % b.size,
		Killer: killer, Collision: collision, own: own,
	})
}

// stageBury takes the dead off the arena and moves the survivors to their
// end-of-round cells.
func (b *Battle) stageBury() {
	for _, id := range b.live {
		sq := &b.squares[id]
		if b.grid[sq.cell] == id {
			b.grid[sq.cell] = -1
		}
	}
	kept := b.live[:0]
	for _, id := range b.live {
		sq := &b.squares[id]
		if sq.dying {
			sq.alive = false
			continue
		}
		sq.cell = sq.dest
		b.grid[sq.cell] = id
		kept = append(kept, id)
	}
	b.live = kept
}
