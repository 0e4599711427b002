package battle

import "errors"

// ErrBadInput marks errors that are the user's to fix: an unknown player
// or game, a file that does not parse, options the battle cannot use. The
// command line exits with status 2 on them.
var ErrBadInput = errors.New("bad input")

// BadInputError is an error the user has to fix; it unwraps to both its
// cause and ErrBadInput.
type BadInputError struct{ Err error }

func (e *BadInputError) Error() string   { return e.Err.Error() }
func (e *BadInputError) Unwrap() []error { return []error{e.Err, ErrBadInput} }

// Bad marks err as the user's to fix (nil stays nil).
func Bad(err error) error {
	if err == nil {
		return nil
	}
	return &BadInputError{Err: err}
}

// SeatError is a bad input that belongs to one seat of a battle: its
// player's version cannot be set up. It unwraps to its cause and
// ErrBadInput, so it is a bad input like any other; a ladder blames the
// seat for it and not the players it was drawn with.
type SeatError struct {
	Seat int // the seat's index in the battle
	Err  error
}

func (e *SeatError) Error() string   { return e.Err.Error() }
func (e *SeatError) Unwrap() []error { return []error{e.Err, ErrBadInput} }

// BadSeat marks err as seat's input to fix (nil stays nil).
func BadSeat(seat int, err error) error {
	if err == nil {
		return nil
	}
	return &SeatError{Seat: seat, Err: err}
}
