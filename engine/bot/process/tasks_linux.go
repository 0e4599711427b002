package process

import (
	"bytes"
	"os"
	"strconv"
)

// userTasks counts the tasks (threads of all processes) whose real user
// id is uid, as RLIMIT_NPROC counts them, from /proc. It is a snapshot:
// tasks of that user that start or end while a bot starts move the
// bot's bound by as many.
func userTasks(uid uint32) (int, error) {
	d, err := os.Open("/proc")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return 0, err
	}
	want := []byte(strconv.FormatUint(uint64(uid), 10))
	total := 0
	for _, n := range names {
		if n[0] < '0' || n[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/status")
		if err != nil {
			continue // gone since the listing
		}
		var real []byte
		threads := 0
		for _, line := range bytes.Split(b, []byte{'\n'}) {
			if v, ok := bytes.CutPrefix(line, []byte("Uid:")); ok {
				if f := bytes.Fields(v); len(f) > 0 {
					real = f[0]
				}
			} else if v, ok := bytes.CutPrefix(line, []byte("Threads:")); ok {
				threads, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
			}
		}
		if bytes.Equal(real, want) {
			total += threads
		}
	}
	return total, nil
}
