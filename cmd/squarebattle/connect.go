package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/squarebattle/squarebattle/engine"
	"github.com/squarebattle/squarebattle/engine/bot"
)

// connectCommand runs a bot of the user's on their own machine for an
// arena: `squarebattle connect [ssh://][USER@]HOST[:PORT] NAME -- COMMAND`.
// It opens the SSH connection as OpenSSH would (the agent, then the usual
// key files; the host checked against known_hosts), runs `bot NAME` there
// and pipes the bot's lines both ways, starting COMMAND again for the next
// battle when it exits.
func connectCommand(args []string, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("connect", pflag.ContinueOnError)
	fs.SortFlags = false
	identity := fs.String("identity", "", "private key file (default: the agent, then ~/.ssh/id_ed25519, id_ecdsa, id_rsa)")
	known := fs.String("known-hosts", "", "known_hosts file (default ~/.ssh/known_hosts)")
	acceptNew := fs.Bool("accept-new", false, "trust a host not yet in known_hosts and add it there (as OpenSSH's StrictHostKeyChecking=accept-new)")
	helpOn(fs, stdout, "usage: squarebattle connect [flags] [ssh://][USER@]HOST[:PORT] NAME -- COMMAND [ARG...]\n\nConnects a bot that runs here to an arena (squarebattle serve) as your player NAME:\nCOMMAND speaks docs/bots.md's protocol on its stdin/stdout, once per battle\n(it is started again for the next one); its stderr comes here. Ends when the\nconnection does. For example:\n\n  squarebattle connect alice@localhost:2222 mybot -- python3 docs/bots/python/squares.py")
	dash := -1
	for i, a := range args {
		if a == "--" {
			dash = i
			break
		}
	}
	if dash < 0 {
		if err := parseFlags(fs, args); err != nil {
			return err
		}
		return bad(errors.New("connect: no COMMAND: squarebattle connect HOST NAME -- COMMAND"))
	}
	command := args[dash+1:]
	if err := parseFlags(fs, args[:dash]); err != nil {
		return err
	}
	if fs.NArg() != 2 || len(command) == 0 {
		return bad(errors.New("connect: want HOST NAME -- COMMAND"))
	}
	user, addr, err := sshTarget(fs.Arg(0))
	if err != nil {
		return bad(err)
	}
	name := fs.Arg(1)
	home, _ := os.UserHomeDir()
	if *known == "" {
		*known = filepath.Join(home, ".ssh", "known_hosts")
	}
	hostKey, err := hostKeyCheck(*known, *acceptNew)
	if err != nil {
		return bad(err)
	}
	auth, err := sshAuth(*identity, home)
	if err != nil {
		return bad(err)
	}
	client, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: hostKey, Timeout: 15 * time.Second})
	if err != nil {
		return fmt.Errorf("connect %s: %w", addr, err)
	}
	defer client.Close()
	sess, err := client.NewSession()
	if err != nil {
		return err
	}
	toArena, _ := sess.StdinPipe()
	fromArena, _ := sess.StdoutPipe()
	// What the arena says on stderr reaches this terminal: made safe to
	// print, line by line (an arena is a server on the network).
	notes := &safeLineWriter{w: stderr}
	defer notes.Flush()
	sess.Stderr = notes
	if err := sess.Start("bot " + name); err != nil {
		return err
	}
	r := &botRunner{argv: command, out: toArena, stderr: stderr}
	defer r.stop()
	go func() {
		sc := bufio.NewScanner(fromArena)
		sc.Buffer(make([]byte, 64<<10), bot.MaxLine+1)
		for sc.Scan() {
			if err := r.deliver(sc.Bytes()); err != nil {
				fmt.Fprintf(stderr, "squarebattle connect: %v\n", err)
			}
		}
		sess.Close()
	}()
	err = sess.Wait()
	var ee *gossh.ExitError
	if errors.As(err, &ee) && ee.ExitStatus() == exitBadInput {
		return bad(errors.New("the arena refused the bot (see above)"))
	}
	return err
}

// botRunner runs the bot's command, once per battle: a line for a bot
// that has exited starts it again.
type botRunner struct {
	argv   []string
	out    io.Writer // to the arena; the bot's stdout lines go there
	stderr io.Writer

	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	done chan struct{}
	wmu  sync.Mutex // one line at a time to the arena
}

// deliver hands one line from the arena to the bot, starting it first if
// it is not running.
func (r *botRunner) deliver(line []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil {
		select {
		case <-r.done:
			r.cmd = nil
		default:
		}
	}
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return err
		}
	}
	_, err := r.in.Write(append(append([]byte{}, line...), '\n'))
	return err
}

// start runs the command; r.mu is held.
func (r *botRunner) start() error {
	cmd := exec.Command(r.argv[0], r.argv[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", r.argv[0], err)
	}
	done := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), bot.MaxLine+1)
		for sc.Scan() {
			r.wmu.Lock()
			_, err := r.out.Write(append(append([]byte{}, sc.Bytes()...), '\n'))
			r.wmu.Unlock()
			if err != nil {
				break
			}
		}
		cmd.Wait()
		close(done)
	}()
	r.cmd, r.in, r.done = cmd, in, done
	return nil
}

// stop ends a bot still running.
func (r *botRunner) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd != nil && r.cmd.Process != nil {
		r.in.Close()
		r.cmd.Process.Kill()
	}
}

// sshTarget reads [ssh://][USER@]HOST[:PORT]; the user defaults to the
// login name, the port to 22.
func sshTarget(s string) (user, addr string, err error) {
	s = strings.TrimPrefix(s, "ssh://")
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		user, s = s[:at], s[at+1:]
	}
	if user == "" {
		user = os.Getenv("USER")
	}
	if s == "" {
		return "", "", errors.New("connect: no host")
	}
	if _, _, err := net.SplitHostPort(s); err != nil {
		s = net.JoinHostPort(strings.Trim(s, "[]"), "22")
	}
	return user, s, nil
}

// hostKeyCheck checks a host's key against known_hosts as OpenSSH does:
// a changed key is refused; an unknown host is refused unless acceptNew,
// which adds it.
func hostKeyCheck(file string, acceptNew bool) (gossh.HostKeyCallback, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		if !acceptNew {
			return nil, fmt.Errorf("connect: no %s: add the arena's key (ssh once, or ssh-keyscan) or pass --accept-new", file)
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, nil, 0o600); err != nil {
			return nil, err
		}
	}
	check, err := knownhosts.New(file)
	if err != nil {
		return nil, fmt.Errorf("connect: %s: %w", file, err)
	}
	return func(host string, remote net.Addr, key gossh.PublicKey) error {
		err := check(host, remote, key)
		var ke *knownhosts.KeyError
		if errors.As(err, &ke) && len(ke.Want) == 0 && acceptNew {
			f, ferr := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0o600)
			if ferr != nil {
				return ferr
			}
			defer f.Close()
			_, ferr = fmt.Fprintln(f, knownhosts.Line([]string{knownhosts.Normalize(host)}, key))
			return ferr
		}
		if errors.As(err, &ke) && len(ke.Want) == 0 {
			return fmt.Errorf("host %s is not in %s: ssh to it once, or pass --accept-new", host, file)
		}
		return err
	}, nil
}

// sshAuth is the agent's keys, then the key file named, else the usual
// ones in ~/.ssh that are not encrypted.
func sshAuth(identity, home string) ([]gossh.AuthMethod, error) {
	var methods []gossh.AuthMethod
	var signers []gossh.Signer
	files := []string{identity}
	if identity == "" {
		files = nil
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			files = append(files, filepath.Join(home, ".ssh", n))
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			if identity != "" {
				return nil, fmt.Errorf("connect: --identity %s: %w", f, err)
			}
			continue
		}
		s, err := gossh.ParsePrivateKey(data)
		if err != nil {
			if identity != "" {
				return nil, fmt.Errorf("connect: --identity %s: %w (an encrypted key: load it into ssh-agent)", f, err)
			}
			continue
		}
		signers = append(signers, s)
	}
	if sock := os.Getenv("SSH_AUTH_SOCK"); sock != "" && identity == "" {
		if conn, err := net.Dial("unix", sock); err == nil {
			methods = append(methods, gossh.PublicKeysCallback(agent.NewClient(conn).Signers))
		}
	}
	if len(signers) > 0 {
		methods = append(methods, gossh.PublicKeys(signers...))
	}
	if len(methods) == 0 {
		return nil, errors.New("connect: no SSH key: no agent and none of ~/.ssh/id_ed25519, id_ecdsa, id_rsa (ssh-keygen -t ed25519 makes one)")
	}
	return methods, nil
}

// safeLineWriter writes what it is given to w a line at a time, each made
// safe to print (engine.SafeLine: escape sequences, carriage returns,
// bidi controls and bytes that are not UTF-8 shown escaped). A line
// longer than maxNoteLine is written in pieces of that size, so a peer
// that never ends its line holds no more than that. Not safe for
// concurrent use (x/crypto writes a session's stderr from one goroutine).
type safeLineWriter struct {
	w   io.Writer
	buf []byte
}

// maxNoteLine bounds the part of a line safeLineWriter holds.
const maxNoteLine = 4096

func (s *safeLineWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			take := min(len(p), maxNoteLine-len(s.buf))
			s.buf = append(s.buf, p[:take]...)
			p = p[take:]
			if len(s.buf) == maxNoteLine {
				if err := s.emit(); err != nil {
					return n - len(p), err
				}
			}
			continue
		}
		take := min(i, maxNoteLine-len(s.buf))
		s.buf = append(s.buf, p[:take]...)
		p = p[take:]
		if len(s.buf) == maxNoteLine && take < i {
			if err := s.emit(); err != nil {
				return n - len(p), err
			}
			continue
		}
		p = p[1:] // the newline
		if err := s.emit(); err != nil {
			return n - len(p), err
		}
	}
	return n, nil
}

// emit writes the held piece, safe, and a newline (a piece cut short of
// its line's end gets one too: the terminal shows it on its own line).
func (s *safeLineWriter) emit() error {
	line := engine.SafeLine(strings.TrimSuffix(string(s.buf), "\r"))
	s.buf = s.buf[:0]
	_, err := io.WriteString(s.w, line+"\n")
	return err
}

// Flush writes a last line the peer did not end.
func (s *safeLineWriter) Flush() {
	if len(s.buf) > 0 {
		s.emit()
	}
}
