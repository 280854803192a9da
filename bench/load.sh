#!/usr/bin/env bash
# Runs the load generator's six scenarios (enqueue, burn-down, latency, noisy neighbour,
# recovery, scale) against a freshly packaged Jobfoundry with a fresh store, on 127.0.0.1 and a
# free port, and stops it on exit. Output: the console and target/bench/load/load.log.
#
#   bench/load.sh                         # every scenario with its defaults, durability fsync
#   DURABILITY=os bench/load.sh
#   bench/load.sh scale --counts 1000,100000,1000000 --timeout 1200
#   bench/load.sh latency --rates 100,1000 --client jdk
#   bench/load.sh push --jobs 5000 --rate 200
#   STORE=fdb FDB_CLUSTER_FILE=/etc/foundationdb/fdb.cluster bench/load.sh burndown
#
# Arguments after the script's name go to `Bench load` (see LoadBench for every option).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

DURABILITY=${DURABILITY:-fsync}
OUT=${OUT:-target/bench/load}
BENCH_WORK=$(mktemp -d /tmp/jobfoundry-load.XXXXXX)
trap cleanup EXIT
mkdir -p "$OUT"

build_jar_and_bench "$OUT/classpath.txt"
port=$(free_port 18280)
# The push scenario's target listens here, in the load generator; the service may call only it.
push_port=$(free_port 18380)
export JOBFOUNDRY_PUSH_ALLOWED_TARGETS="http://127.0.0.1:$push_port/"
start_jobfoundry "$DURABILITY" "$port" "$BENCH_WORK/store" "$OUT/jobfoundry.log"
log "Jobfoundry (${STORE:-embedded}, durability $DURABILITY) on $JOBFOUNDRY_URL, pid $JOBFOUNDRY_PID; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
[ $# -gt 0 ] || set -- all
# --server-pid: the client scenario also reports the service's CPU per request.
bench_java load "$@" --url "$JOBFOUNDRY_URL" --server-pid "$JOBFOUNDRY_PID" --push-port "$push_port" 2>&1 \
  | tee "$OUT/load.log"
# Transactions and their retries (conflicts, FoundationDB's throttling) over the whole run.
curl -fsS "$JOBFOUNDRY_URL/q/metrics" | grep -E '^jobfoundry_store_(transactions|retries)_total' | tee -a "$OUT/load.log"
