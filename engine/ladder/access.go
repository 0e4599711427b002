package ladder

import "context"

// Player returns one player as the store holds it now.
func (l *Ladder) Player(ctx context.Context, id PlayerID) (Player, error) {
	var p Player
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		p, err = tx.Player(id)
		return err
	})
	return p, err
}

// PlayerByName returns a game's player by its name.
func (l *Ladder) PlayerByName(ctx context.Context, game, name string) (Player, error) {
	var p Player
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		p, err = tx.PlayerByName(game, name)
		return err
	})
	return p, err
}

// Source returns a version's source by its hash: what a battle's seat
// plays.
func (l *Ladder) Source(ctx context.Context, hash string) ([]byte, error) {
	var src []byte
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		src, err = tx.Source(hash)
		return err
	})
	return src, err
}

// Battle returns one battle.
func (l *Ladder) Battle(ctx context.Context, id BattleID) (Battle, error) {
	var b Battle
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		b, err = tx.Battle(id)
		return err
	})
	return b, err
}

// Battles lists battles as q selects them.
func (l *Ladder) Battles(ctx context.Context, q BattleQuery) ([]Battle, error) {
	var out []Battle
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = tx.Battles(q)
		return err
	})
	return out, err
}

// SetReplay records where a battle's replay is kept; "" once it is pruned
// (the result stays).
func (l *Ladder) SetReplay(ctx context.Context, id BattleID, replay string) error {
	return l.store.Update(ctx, func(tx Tx) error {
		b, err := tx.Battle(id)
		if err != nil {
			return err
		}
		b.Replay = replay
		return tx.SaveBattle(&b)
	})
}

// Players lists a game's players, retired ones too, by ID.
func (l *Ladder) Players(ctx context.Context, game string) ([]Player, error) {
	var out []Player
	err := l.store.View(ctx, func(tx Tx) error {
		var err error
		out, err = tx.Players(game)
		return err
	})
	return out, err
}

// MaxTries is how often a battle is handed out before it is given up.
func (l *Ladder) MaxTries() int { return l.tries }
