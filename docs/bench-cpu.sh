#!/usr/bin/env bash
# bench-cpu.sh compares the CPU time two builds spend on the same fixed
# work, in benchstat's format, so that a machine loaded by other jobs
# still gives a fair ratio: each benchmark runs a fixed number of
# iterations (-test.benchtime Nx), the two test binaries take turns, and
# what is recorded is the process's user + system CPU seconds (its own
# threads and the garbage collector's; worker processes it waits for are
# counted too, since they are its children).
#
#   go test -c -o /tmp/old.test ./scripts    # on the commit before
#   go test -c -o /tmp/new.test ./scripts    # on the commit after
#   docs/bench-cpu.sh scripts /tmp/old.test /tmp/new.test 'Snake$' 2x 6
#   benchstat /tmp/bench-cpu/old.txt /tmp/bench-cpu/new.txt
#
# Arguments: the package's folder (the binaries run there, as go test
# runs them), the two binaries, the benchmark's -test.bench pattern, its
# -test.benchtime (iterations: Nx) and how many turns each takes. The
# results are appended to $OUT/old.txt and $OUT/new.txt (OUT defaults to
# /tmp/bench-cpu) as "Benchmark<name>/cpu 1 <seconds> cpu-sec/op" lines.
set -euo pipefail
if [ $# -ne 6 ]; then
	echo "usage: $0 PKGDIR OLD.test NEW.test PATTERN BENCHTIME TURNS" >&2
	exit 2
fi
dir=$1 old=$2 new=$3 pattern=$4 benchtime=$5 turns=$6
case $benchtime in
*x) ;;
*) echo "$0: BENCHTIME must be a fixed number of iterations (like 2x), not $benchtime" >&2; exit 2 ;;
esac
out=${OUT:-/tmp/bench-cpu}
mkdir -p "$out"
name=$(printf '%s' "$pattern" | tr -d '^$' | tr -c 'A-Za-z0-9_/=-' '_')
for _ in $(seq "$turns"); do
	for side in old new; do
		bin=$old
		[ "$side" = new ] && bin=$new
		# bash's times: user and system seconds of the children, before
		# and after (TIMEFORMAT gives them to 3 decimals).
		t=$( { TIMEFORMAT='%U %S'; time (cd "$dir" && "$bin" -test.run '^$' -test.bench "$pattern" -test.benchtime "$benchtime" -test.count 1 >/dev/null); } 2>&1 | tail -1)
		read -r user sys <<<"$t"
		printf 'Benchmark%s/cpu 1 %s cpu-sec/op\n' "$name" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" >>"$out/$side.txt"
	done
done
echo "appended $turns turns each to $out/old.txt and $out/new.txt"
