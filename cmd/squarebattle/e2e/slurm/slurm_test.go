package slurm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/squarebattle/squarebattle/cmd/squarebattle/e2e/harness"
)

// script is the shipped Slurm script, from this package's folder.
const script = "../../../../docs/slurm-tournament.sh"

// flags are a small tournament: each shard plays in seconds.
var flags = []string{"--format", "koth", "--games", "24", "--seed", "11", "--size", "20", "--rounds", "120"}

// wait bounds how long the jobs may take, queueing included.
const wait = 5 * time.Minute

// cluster skips the test when no Slurm cluster answers (failing instead
// when TOOLS_REQUIRED is set) and returns a folder to run jobs in, with
// the program on PATH as squarebattle.
func cluster(t *testing.T) (work string, env []string) {
	t.Helper()
	if os.Getenv("SLURM_CONF") == "" {
		harness.SkipOrRequire(t, "no Slurm cluster: run `. .ci/services` to start one (SLURM_CONF is not set)")
	}
	if out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput(); err != nil || !strings.Contains(string(out), "idle") && !strings.Contains(string(out), "mix") && !strings.Contains(string(out), "alloc") {
		harness.SkipOrRequire(t, "the Slurm cluster is not up: sinfo: %v %s", err, out)
	}
	bin := harness.Program(t)
	work = t.TempDir()
	env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":"+os.Getenv("PATH"))
	for _, d := range []string{"results", "logs"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return work, env
}

// run runs a command in work and returns its standard output.
func run(t *testing.T, work string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = work, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return strings.TrimSpace(string(out))
}

// gone waits until none of the jobs is in the queue any more.
func gone(t *testing.T, work string, env []string, jobs ...string) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		out := run(t, work, env, "squeue", "-h", "-j", strings.Join(jobs, ","), "-o", "%i %T")
		if out == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs %v still queued after %v:\n%s", jobs, wait, out)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// oneMachine is the same tournament's standings played in one process.
func oneMachine(t *testing.T, work string, env []string) []byte {
	t.Helper()
	out := run(t, work, env, harness.Program(t), append([]string{"tournament", "--quiet"}, flags...)...)
	return []byte(out + "\n")
}

// TestSlurmArray submits the shipped script as an array of 4 tasks (its
// resources as shipped) and the merge job it documents after them; the
// merged standings equal one machine's byte for byte.
func TestSlurmArray(t *testing.T) {
	work, env := cluster(t)
	abs, _ := filepath.Abs(script)
	array := run(t, work, env, "sbatch", append([]string{"--parsable", "--array=0-3", abs}, flags...)...)
	merge := run(t, work, env, "sbatch", "--parsable", "--dependency=afterok:"+array, "--output=logs/merge.log", "--wrap",
		"squarebattle tournament merge --out results/tournament.json results/shard-*.json > standings.txt")
	gone(t, work, env, array, merge)
	got, err := os.ReadFile(filepath.Join(work, "standings.txt"))
	if err != nil {
		logs, _ := exec.Command("sh", "-c", "cat "+filepath.Join(work, "logs")+"/*").CombinedOutput()
		t.Fatalf("no standings: %v\nlogs:\n%s", err, logs)
	}
	if want := oneMachine(t, work, env); !bytes.Equal(got, want) {
		t.Errorf("merged standings from Slurm:\n%s\none machine:\n%s", got, want)
	}
	shards, _ := filepath.Glob(filepath.Join(work, "results", "shard-*.json"))
	if len(shards) != 4 {
		t.Errorf("%d shard files, want 4: %v", len(shards), shards)
	}
}

// TestSlurmRerunShard: a task cancelled before it ran leaves its shard
// missing; merge refuses with one line naming what is missing; the shard
// played again alone with --shard I/N completes the merge, which equals
// one machine's standings.
func TestSlurmRerunShard(t *testing.T) {
	work, env := cluster(t)
	abs, _ := filepath.Abs(script)
	array := run(t, work, env, "sbatch", append([]string{"--parsable", "--hold", "--array=0-3", abs}, flags...)...)
	run(t, work, env, "scancel", array+"_2")
	run(t, work, env, "scontrol", "release", array)
	gone(t, work, env, array)
	if _, err := os.Stat(filepath.Join(work, "results", "shard-2.json")); err == nil {
		t.Fatal("the cancelled task wrote its shard")
	}
	cmd := exec.Command("sh", "-c", "squarebattle tournament merge results/shard-*.json")
	cmd.Dir, cmd.Env = work, env
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 2 || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 || !strings.Contains(string(out), "2") {
		t.Errorf("merge with a shard missing: %v, output %q; want exit 2 and one line naming the missing shard", err, out)
	}
	t.Logf("merge with shard 2 missing: %s", strings.TrimSpace(string(out)))
	rerun := run(t, work, env, "sbatch", "--parsable", "--output=logs/rerun.log", "--wrap",
		"squarebattle tournament "+strings.Join(flags, " ")+" --shard 2/4 --out results/shard-2.json --quiet")
	merge := run(t, work, env, "sbatch", "--parsable", "--dependency=afterok:"+rerun, "--output=logs/merge.log", "--wrap",
		"squarebattle tournament merge results/shard-*.json > standings.txt")
	gone(t, work, env, rerun, merge)
	got, _ := os.ReadFile(filepath.Join(work, "standings.txt"))
	if want := oneMachine(t, work, env); !bytes.Equal(got, want) {
		t.Errorf("after the re-run, merged standings:\n%s\none machine:\n%s", got, want)
	}
}
