// Package ssh is the SSH front end of SquareBattle (`squarebattle serve`):
// an arena people reach with a plain ssh client. It wraps
// github.com/gliderlabs/ssh (imported as gssh) over golang.org/x/crypto/ssh
// and hands each terminal session to package tui through tcell's Tty
// interface; everything that draws stays in tui.
//
// This package owns the server's edge, the third wall of DESIGN.md's
// defence in depth: identities by public key, limits on connections,
// sessions, uploads and time, the uploaded players on disk, and the exec
// commands that work without a terminal (submit, players, get, help).
// Every client byte is treated as hostile: sizes are bounded before
// anything is read, names are validated before they touch the file
// system, and a client that stops reading is disconnected instead of
// blocking the server.
package ssh
