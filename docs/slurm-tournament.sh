#!/usr/bin/env bash
# A SquareBattle tournament as a Slurm job array: one task per shard, each
# writing its results file to a shared folder. See docs/tournament.md.
#
#   mkdir -p results logs
#   jobid=$(sbatch --parsable docs/slurm-tournament.sh)
#   sbatch --dependency=afterok:$jobid --wrap \
#     'squarebattle tournament merge --markdown --out results/tournament.json results/shard-*.json > standings.md'
#
# --shard auto/N takes the shard index from SLURM_ARRAY_TASK_ID minus
# SLURM_ARRAY_TASK_MIN, so --array=0-7 and --array=1-8 both work; N is the
# array's size. Every task must get the same tournament flags.
#SBATCH --job-name=squarebattle-tournament
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --mem=2G
#SBATCH --time=02:00:00
#SBATCH --output=logs/shard-%a.log
set -euo pipefail

results=${RESULTS:-results}
mkdir -p "$results"

# Go uses the CPUs Slurm gives the task, so --workers can stay at its default.
squarebattle tournament \
  --format koth --games 4000 --seed 20240601 --size 64 --rounds 500 \
  --shard "auto/${SLURM_ARRAY_TASK_COUNT}" \
  --out "$results/shard-${SLURM_ARRAY_TASK_ID}.json" \
  --quiet
