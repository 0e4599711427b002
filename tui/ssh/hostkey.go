package ssh

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// LoadHostKey reads the ed25519 host key at path, creating it (mode 0600,
// atomically) when the file does not exist. created says which happened.
// A key file readable by others is refused: whoever reads it can pose as
// the server.
func LoadHostKey(path string) (signer gossh.Signer, created bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		_, priv, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, false, gerr
		}
		block, merr := gossh.MarshalPrivateKey(priv, "squarebattle serve host key")
		if merr != nil {
			return nil, false, merr
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, false, err
		}
		if err := writeAtomic(path, pem.EncodeToMemory(block), 0o600); err != nil {
			return nil, false, fmt.Errorf("host key %s: %w", path, err)
		}
		s, err := gossh.NewSignerFromKey(priv)
		return s, true, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, false, fmt.Errorf("host key %s: mode %04o lets others read it; chmod 600 it", path, st.Mode().Perm())
	}
	s, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	return s, false, nil
}

// Fingerprint is the SHA256 fingerprint of a public key as OpenSSH prints
// it ("SHA256:..."): a user's identity, and the host key's in the log.
func Fingerprint(k gossh.PublicKey) string { return gossh.FingerprintSHA256(k) }

// maxKeysFile bounds an authorized_keys file.
const maxKeysFile = 16 << 20

// ReadAuthorizedKeys reads an authorized_keys file into a set of
// fingerprints. Options and comments are ignored; a line that does not
// parse is an error naming the file and the line.
func ReadAuthorizedKeys(path string) (map[string]bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > maxKeysFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxKeysFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for i, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' {
			continue
		}
		k, _, _, _, err := gossh.ParseAuthorizedKey(l)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, i+1, err)
		}
		out[Fingerprint(k)] = true
	}
	return out, nil
}
