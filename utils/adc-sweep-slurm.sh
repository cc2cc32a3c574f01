#!/usr/bin/env bash
# Run a sweep of ns3-adc as a Slurm job array: one array task per line of the sweep's jobs.txt.
#
#   ./adc sweep EXPERIMENT [NAME=V1,V2,...] --runs K --jobs-only   # writes jobs.txt, runs none
#   n=$(wc -l < results/EXPERIMENT/sweep/jobs.txt)
#   sbatch --array=1-$n utils/adc-sweep-slurm.sh results/EXPERIMENT/sweep
#   # when every task has ended:
#   ./adc sweep EXPERIMENT --collect                                  # sweep.csv, stats, plots
#
# The nodes need this checkout (built: ./adc build) and the sweep folder at the same paths,
# e.g. on a shared file system. Each task writes only its own run folder.
#SBATCH --job-name=adc-sweep
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=adc-sweep-%A_%a.out
set -euo pipefail
sweep=${1:?usage: sbatch --array=1-N adc-sweep-slurm.sh SWEEP_FOLDER}
task=${SLURM_ARRAY_TASK_ID:?not in a Slurm job array (submit with sbatch --array=1-N)}
line=$(sed -n "${task}p" "$sweep/jobs.txt")
[[ -n $line ]] || { echo "adc-sweep-slurm: $sweep/jobs.txt has no line $task" >&2; exit 2; }
exec bash -c "$line"
