package replay

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemovePartials: in a folder of replays, the temporary files of
// interrupted writes go, and only they: not a link or a folder named like
// one, not another name, not what is in a sub-folder or outside the root.
func TestRemovePartials(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	dir := filepath.Join(root, "replays")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o700)
	target := filepath.Join(outside, ".x.sbr.1.partial")
	os.WriteFile(target, []byte("outside"), 0o600)
	entries := []struct {
		name string
		kind string // "file", "link" (to target), "dir"
		gone bool
	}{
		{".20260101-120000-ab.sbr.123456.partial", "file", true},
		{".20260101-120000-ab.sbr.json.42.partial", "file", true},
		{".L17.sbr.987654321.partial", "file", true},
		{"L17.sbr", "file", false},
		{"20260101-120000-ab.sbr", "file", false},
		{".L18.sbr.5.partial", "link", false},
		{".L19.sbr.6.partial", "dir", false},
		{"L20.sbr.7.partial", "file", false}, // no leading dot: not a temporary file
		{".partial", "file", false},
		{".tmp-12345", "file", false},
		{"sub/.L21.sbr.8.partial", "file", false},
	}
	var want Partials
	for _, e := range entries {
		p := filepath.Join(dir, e.name)
		var err error
		switch e.kind {
		case "file":
			err = os.WriteFile(p, []byte(e.name), 0o600)
		case "link":
			err = os.Symlink(target, p)
		case "dir":
			err = os.Mkdir(p, 0o700)
			if err == nil {
				err = os.WriteFile(filepath.Join(p, "inside"), nil, 0o600)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if e.gone {
			want.Files++
			want.Bytes += int64(len(e.name))
		}
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := RemovePartials(r, "replays")
	if err != nil || got != want {
		t.Fatalf("RemovePartials: %+v (%v), want %+v", got, err, want)
	}
	for _, e := range entries {
		_, err := os.Lstat(filepath.Join(dir, e.name))
		if gone := os.IsNotExist(err); gone != e.gone {
			t.Errorf("%s (%s): gone %v, want %v", e.name, e.kind, gone, e.gone)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "outside" {
		t.Errorf("the link's target now holds %q", b)
	}

	// A folder that is not there holds none; one that leads out of the
	// root is refused and what is outside stays.
	if got, err := RemovePartials(r, "ladder/replays"); err != nil || got != (Partials{}) {
		t.Errorf("a folder not there: %+v (%v)", got, err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	if got, err := RemovePartials(r, "out"); err == nil || got != (Partials{}) {
		t.Errorf("a folder outside the root: %+v (%v), want an error", got, err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("outside the root: %v", err)
	}
}

// TestTempPattern: the files Create writes through match PartialGlob.
func TestTempPattern(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"battle.sbr", "L1.sbr", "x.sbr.json", ".sbr"} {
		f, err := os.CreateTemp(dir, TempPattern(filepath.Join(dir, name)))
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if ok, _ := filepath.Match(PartialGlob, filepath.Base(f.Name())); !ok {
			t.Errorf("%s: %s does not match %s", name, f.Name(), PartialGlob)
		}
	}
}
