#!/usr/bin/env bash
# A SquareBattle tournament as a Slurm job array: one task per shard, each
# writing its results file to a shared folder, then one merge job. See
# docs/tournament.md, "On Slurm".
#
#   mkdir -p results logs
#   jobid=$(sbatch --parsable docs/slurm-tournament.sh)
#   sbatch --dependency=afterok:$jobid --output=logs/merge.log --wrap \
#     'squarebattle tournament merge --out results/tournament.json results/shard-*.json > standings.txt'
#
# The resources below fit a small node (one CPU and 1 GB a task); sbatch's
# own options win over them, so a bigger node is one line away:
#
#   sbatch --array=0-31 --cpus-per-task=4 --mem=2G docs/slurm-tournament.sh
#
# Arguments after the script replace the tournament's flags below (every
# task gets the same ones, so every shard plays its slice of one
# tournament):
#
#   sbatch --array=0-3 docs/slurm-tournament.sh --format koth --games 40 --seed 7
#
# --shard auto/N takes the shard index from SLURM_ARRAY_TASK_ID minus
# SLURM_ARRAY_TASK_MIN, so --array=0-7 and --array=1-8 both work; N is the
# array's size. A failed task is played again alone with --shard I/N (the
# same flags, I its index); merge refuses missing, repeated or mismatched
# shards with one line naming the file.
#SBATCH --job-name=squarebattle-tournament
#SBATCH --array=0-7
#SBATCH --cpus-per-task=1
#SBATCH --mem=1G
#SBATCH --time=02:00:00
#SBATCH --output=logs/shard-%a.log
set -euo pipefail

results=${RESULTS:-results}
mkdir -p "$results"

flags=(--format koth --games 4000 --seed 20240601 --size 64 --rounds 500)
if [ "$#" -gt 0 ]; then
  flags=("$@")
fi

# Go uses the CPUs Slurm gives the task, so --workers can stay at its default.
squarebattle tournament "${flags[@]}" \
  --shard "auto/${SLURM_ARRAY_TASK_COUNT}" \
  --out "$results/shard-$((SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN)).json" \
  --quiet
