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
