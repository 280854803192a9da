#!/usr/bin/env bash
# Measures two builds of Jobfoundry against each other, alternately, in the same minutes. On a
# machine whose host takes CPU at random, single runs of one build vary by a fifth; only runs
# taken side by side show a change of a few percent. Each build is packaged from a git ref in a
# worktree of its own (`.` is the working tree as it is, uncommitted changes included); the bench
# client is the current checkout's. Every round starts each build on a fresh store and runs the
# comparison workload (create → accept → finish of no-op jobs) after a warm-up in the same client.
#
#   bench/ab.sh main .                         # main against the working tree
#   ROUNDS=3 DURABILITY=fsync bench/ab.sh HEAD~1 HEAD
#   LOAD="latency --rates 100,1000" bench/ab.sh main .   # a load.sh scenario instead
#   WORKLOAD=bulk bench/ab.sh main .           # compare.sh's bulk workload (both refs need the batch calls)
#   ENGINE="bulk 50000 4" ROUNDS=3 bench/ab.sh HEAD~1 HEAD   # an in-process engine bench, no HTTP
#
# ENGINE runs `Bench engine ENGINE` of each build in place of the service (each build's own engine
# and bench code, in a JVM of its own per round): `engine bulk` reports the embedded store's
# committer CPU per job, which a change of a few percent on the committer moves visibly while
# the service's figures over HTTP do not.
#
# Settings (environment): WORKLOAD (single, or bulk as in compare.sh), ROUNDS (2), DURABILITY (os),
# JOBS (30000), WARMUP (40000), WARMUP_ROUNDS (1; more, as compare.sh does, repeat the warm-up
# until the service's JIT has settled), WORKERS (16), PRODUCERS (4), TIMEOUT (90 s per phase), OUT
# (target/bench/ab), LOAD (the arguments of a `Bench load` scenario to run in place of the
# comparison workload), ENGINE (the arguments of a `Bench engine` scenario, above). Output: the
# console, and every figure of the comparison workload in $OUT/results.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

[ $# -eq 2 ] || die "usage: bench/ab.sh REF-A REF-B  (a git ref, or . for the working tree)"
WORKLOAD=${WORKLOAD:-single}
ROUNDS=${ROUNDS:-2}
DURABILITY=${DURABILITY:-os}
JOBS=${JOBS:-30000}
WARMUP=${WARMUP:-40000}
WARMUP_ROUNDS=${WARMUP_ROUNDS:-1}
WORKERS=${WORKERS:-16}
PRODUCERS=${PRODUCERS:-4}
TIMEOUT=${TIMEOUT:-90}
OUT=${OUT:-target/bench/ab}

BENCH_WORK=$(mktemp -d /tmp/jobfoundry-ab.XXXXXX)
trap cleanup EXIT
mkdir -p "$OUT"
rm -f "$OUT/results.jsonl" "$OUT/summary.txt"

# Compiles ref $1's engine and bench in a worktree of its own (or the working tree, for .) and
# appends the class path that runs them to ENGINE_CLASSPATHS.
ENGINE_CLASSPATHS=()
compile_engine() {
  local ref=$1 name=$2 tree=.
  if [ "$ref" != . ]; then
    tree=$BENCH_WORK/tree-$name
    git worktree add --quiet --detach "$tree" "$ref"
    BENCH_STOP_COMMANDS+=("git worktree remove --force $tree")
  fi
  log "compiling the engine bench of $ref ($(git -C "$tree" rev-parse --short HEAD))"
  (cd "$tree" && mvn_quiet -Pbench test-compile dependency:build-classpath \
    -Dmdep.outputFile="$BENCH_WORK/classpath-$name.txt" -Dmdep.includeScope=test)
  tree=$(cd "$tree" && pwd)
  ENGINE_CLASSPATHS+=("$tree/target/test-classes:$tree/target/classes:$(cat "$BENCH_WORK/classpath-$name.txt")")
}

if [ -n "${ENGINE:-}" ]; then
  labels=("A $1" "B $2")
  compile_engine "$1" a
  compile_engine "$2" b
  log "$ROUNDS rounds of engine $ENGINE"
  for round in $(seq "$ROUNDS"); do
    for i in 0 1; do
      # shellcheck disable=SC2086 # ENGINE is a list of arguments
      java -cp "${ENGINE_CLASSPATHS[$i]}" io.jobfoundry.bench.Bench engine $ENGINE 2>&1 \
        | sed "s/^/round $round, ${labels[$i]}: /" | tee -a "$OUT/summary.txt"
    done
  done
  # engine bulk's measured rounds (not its warm-ups): one line per build, each figure's median first.
  median() { sort -n | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
  for i in 0 1; do
    rows=$(grep -F "${labels[$i]}: " "$OUT/summary.txt" | sed 's/^.*: //' | awk 'NF == 3 && $1 ~ /^[0-9]+$/')
    [ -n "$rows" ] || continue
    echo "${labels[$i]}: jobs/s median $(echo "$rows" | awk '{print $2}' | median)" \
      "($(echo "$rows" | awk '{print $2}' | paste -sd' ')); committer CPU µs/job median" \
      "$(echo "$rows" | awk '{print $3}' | median) ($(echo "$rows" | awk '{print $3}' | paste -sd' '))"
  done
  exit 0
fi

build_jar_and_bench "$BENCH_WORK/classpath.txt"

# Packages ref $1 and copies the application to $2.
package_ref() {
  local ref=$1 app=$2
  if [ "$ref" = . ]; then
    cp -r target/quarkus-app "$app" # just packaged by build_jar_and_bench
    return
  fi
  local tree=$BENCH_WORK/tree-$(basename "$app")
  git worktree add --quiet --detach "$tree" "$ref"
  BENCH_STOP_COMMANDS+=("git worktree remove --force $tree")
  log "packaging $ref ($(git rev-parse --short "$ref"))"
  (cd "$tree" && mvn_quiet package -DskipTests)
  cp -r "$tree/target/quarkus-app" "$app"
}

describe_ref() {
  if [ "$1" = . ]; then
    local commit
    commit=$(git rev-parse --short HEAD)
    git diff --quiet HEAD -- src pom.xml || commit="$commit+changes"
    echo "$commit"
  else
    git rev-parse --short "$1"
  fi
}

labels=("A $1 ($(describe_ref "$1"))" "B $2 ($(describe_ref "$2"))")
package_ref "$1" "$BENCH_WORK/a"
package_ref "$2" "$BENCH_WORK/b"
apps=("$BENCH_WORK/a" "$BENCH_WORK/b")

log "$ROUNDS rounds, durability $DURABILITY, $JOBS jobs after a $WARMUP-job warm-up, $WORKERS workers, $PRODUCERS producers"
for round in $(seq "$ROUNDS"); do
  for i in 0 1; do
    port=$(free_port 18480)
    start_jobfoundry "$DURABILITY" "$port" "$BENCH_WORK/store-$round-$i" "$OUT/jobfoundry-$i.log" "${apps[$i]}"
    if [ -n "${LOAD:-}" ]; then
      # shellcheck disable=SC2086 # LOAD is a list of arguments
      bench_java load $LOAD --url "$JOBFOUNDRY_URL" --server-pid "$JOBFOUNDRY_PID" 2>&1 \
        | sed "s/^/round $round, ${labels[$i]}: /" | tee -a "$OUT/summary.txt"
      stop_pid "$JOBFOUNDRY_PID"
      continue
    fi
    line=$(bench_java compare jobfoundry --workload "$WORKLOAD" --jobs "$JOBS" --workers "$WORKERS" --producers "$PRODUCERS" \
      --timeout "$TIMEOUT" --warmup "$WARMUP" --warmup-rounds "$WARMUP_ROUNDS" --label "${labels[$i]}" --version "${labels[$i]}" \
      --durability "$DURABILITY" --server-pid "$JOBFOUNDRY_PID" --out "$OUT/results.jsonl" \
      --url "$JOBFOUNDRY_URL" --client raw | tail -1)
    echo "round $round, $line" | tee -a "$OUT/summary.txt"
    stop_pid "$JOBFOUNDRY_PID"
  done
done

[ -z "${LOAD:-}" ] || exit 0
# One line per build: its jobs/s and its service CPU per job, run by run.
for i in 0 1; do
  label=${labels[$i]}
  rates=$(grep -F "$label:" "$OUT/summary.txt" | sed -n 's/.*= \([0-9]*\) jobs\/s.*/\1/p' | paste -sd' ')
  cpu=$(grep -F "$label:" "$OUT/summary.txt" | sed -n 's/.*server \([0-9.]*\).*/\1/p' | paste -sd' ')
  echo "$label: jobs/s $rates; service CPU ms/job $cpu"
done
