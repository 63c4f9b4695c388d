#!/bin/bash
# Submits a sharded routelab study to Slurm: the development round, the
# validation round once it has succeeded, and the merge once that has.
#
#   deploy/slurm/submit.sh examples/study-100-seeds.json /shared/routelab/study-100
#
# The results land in DIR: study.json, study.txt and study.html. routelab
# must be on PATH on every node; DIR on a file system they all see.
set -euo pipefail

study=${1:?usage: submit.sh STUDY.json DIR}
dir=${2:?usage: submit.sh STUDY.json DIR}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"

dev=$(sbatch --parsable "$here/study.sbatch" "$study" "$dir" development)
val=$(sbatch --parsable --dependency="afterok:${dev%%;*}" "$here/study.sbatch" "$study" "$dir" validation)
merge=$(sbatch --parsable --dependency="afterok:${val%%;*}" --job-name=routelab-merge \
	--ntasks=1 --cpus-per-task=1 --mem=512M --time=00:10:00 --output="$dir/merge-%j.log" \
	--wrap="routelab merge '$dir/study-*-of-*.json' --json --out '$dir/study.json' --table '$dir/study.txt' --html '$dir/study.html'")
echo "submitted: development $dev, validation $val, merge $merge; results in $dir"
