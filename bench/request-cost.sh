#!/usr/bin/env bash
# The service's CPU per request, against a bare Quarkus REST application of the same Quarkus
# version (bench/bare-quarkus: quarkus-rest and quarkus-rest-jackson only, the same paths over a
# map in memory), for three shapes of request:
#   get     GET /v1/jobs/{type}/{id} of an existing job (a small JSON record)
#   404     GET /v1/jobs/{type}/{id} of a job that does not exist
#   create  POST /v1/jobs/{type} with a small JSON body
# Each is driven by wrk (16 connections, 2 threads) for a fixed time, once every shape has had its
# warm-up; the service's CPU is read from /proc/PID/stat (utime + stime, every thread) before and
# after the measured run, and divided by the requests wrk completed; the same is printed for the
# event loops, the worker threads and the embedded store's threads alone (/proc/PID/task), so that
# a change to one part shows beside the whole, whose rounds swing more. The applications run one at a
# time, alternately round by round, each on a fresh store, so a busy machine slows them alike.
#
#   bench/request-cost.sh                    # the bare application and the working tree
#   bench/request-cost.sh HEAD~3 .           # ... and an earlier commit, built in a worktree
#   bench/request-cost.sh /tmp/try/quarkus-app .   # ... a build packaged by hand (a folder with quarkus-run.jar)
#   ROUNDS=5 SHAPES="get 404" bench/request-cost.sh
#   bench/request-cost.sh . .+auth           # the working tree without and with a bearer token
#
# A ref ending in +auth is that build started with one token configured (role admin, every type)
# and every request sending it, so the runs show what checking a token costs; without +auth the
# service runs in protected mode from loopback, which checks no token.
#
# Settings (environment): ROUNDS (3), DURATION (10, seconds of each measured run), WARMUP (20, seconds
# of wrk before it), CONNECTIONS (16), THREADS (2), SHAPES ("get 404 create"), DURABILITY (fsync,
# the service's default), JAVA_OPTS (extra JVM flags for every application), READY_TIMEOUT (60, seconds
# an application may take to get ready: more on a loaded machine), OUT
# (target/bench/request-cost). Output: the console, $OUT/results.jsonl (one line per run) and
# $OUT/summary.txt (medians).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-20}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-2}
SHAPES=${SHAPES:-get 404 create}
DURABILITY=${DURABILITY:-fsync}
JAVA_OPTS=${JAVA_OPTS:-}
READY_TIMEOUT=${READY_TIMEOUT:-60}
OUT=${OUT:-target/bench/request-cost}
[ $# -gt 0 ] || set -- .

command -v wrk >/dev/null || die "wrk is missing: apt-get install wrk"
BENCH_WORK=$(mktemp -d /tmp/jobfoundry-request-cost.XXXXXX)
trap cleanup EXIT
mkdir -p "$OUT"
rm -f "$OUT/results.jsonl" "$OUT/summary.txt"
TICKS=$(getconf CLK_TCK)

log "building the bare Quarkus application (bench/bare-quarkus)"
mvn_quiet -f bench/bare-quarkus/pom.xml package -DskipTests
cp -r bench/bare-quarkus/target/quarkus-app "$BENCH_WORK/bare"

# Packages ref $1 (. for the working tree as it is) and copies the application to $2; a folder
# that holds quarkus-run.jar (an application packaged by hand) is copied as it is.
package_ref() {
  local ref=$1 app=$2
  if [ -f "$ref/quarkus-run.jar" ]; then
    cp -r "$ref" "$app"
    return
  fi
  if [ "$ref" = . ]; then
    log "packaging the working tree ($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml || echo +changes))"
    mvn_quiet package -DskipTests
    cp -r target/quarkus-app "$app"
    return
  fi
  local tree=$BENCH_WORK/tree-$(basename "$app")
  git worktree add --quiet --detach "$tree" "$ref"
  BENCH_STOP_COMMANDS+=("git worktree remove --force $tree")
  log "packaging $ref ($(git rev-parse --short "$ref"))"
  (cd "$tree" && mvn_quiet package -DskipTests)
  cp -r "$tree/target/quarkus-app" "$app"
}

labels=(bare)
apps=("$BENCH_WORK/bare")
auth=(0)
BENCH_TOKEN=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
BENCH_TOKEN_HASH=sha256:$(printf %s "$BENCH_TOKEN" | sha256sum | cut -d' ' -f1)
declare -A packaged=()
for given in "$@"; do
  ref=${given%+auth}
  i=${#apps[@]}
  if [ -n "${packaged[$ref]:-}" ]; then
    cp -r "${packaged[$ref]}" "$BENCH_WORK/app-$i" # the same build, with or without a token
  else
    package_ref "$ref" "$BENCH_WORK/app-$i"
    packaged[$ref]=$BENCH_WORK/app-$i
  fi
  [ "$ref" != "$given" ] && auth+=(1) || auth+=(0)
  suffix=${given#"$ref"}
  if [ -f "$ref/quarkus-run.jar" ]; then
    labels+=("jobfoundry $ref$suffix")
  elif [ "$ref" = . ]; then
    labels+=("jobfoundry .($(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src pom.xml || echo +changes))$suffix")
  else
    labels+=("jobfoundry $ref($(git rev-parse --short "$ref"))$suffix")
  fi
  apps+=("$BENCH_WORK/app-$i")
done

cat >"$BENCH_WORK/create.lua" <<'EOF'
wrk.method = "POST"
wrk.body = '{"data":{"to":"someone@example.com","n":1}}'
wrk.headers["Content-Type"] = "application/json"
EOF

# Starts application $1 (an index into apps) on a free port; sets APP_PID and APP_URL.
start_app() {
  local i=$1 port
  port=$(free_port 18680)
  APP_URL="http://127.0.0.1:$port"
  if [ "$i" -eq 0 ]; then
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
    start_logged "$OUT/app-$i.log" java $JAVA_OPTS -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$port" \
      -jar "${apps[0]}/quarkus-run.jar"
    APP_PID=$STARTED_PID
    wait_until "$READY_TIMEOUT" curl -fsS "$APP_URL/ready" || die "the bare application did not get ready; see $OUT/app-$i.log"
  else
    local store=$BENCH_WORK/store-$round-$i token=()
    mkdir -p "$store"
    if [ "${auth[$i]}" = 1 ]; then
      token=(-Djobfoundry.auth.tokens.bench.hash="$BENCH_TOKEN_HASH" -Djobfoundry.auth.tokens.bench.roles=admin)
    fi
    # shellcheck disable=SC2086
    start_logged "$OUT/app-$i.log" env JOBFOUNDRY_EMBEDDED_PATH="$store/jobfoundry.db" \
      JOBFOUNDRY_EMBEDDED_DURABILITY="$DURABILITY" java $JAVA_OPTS "${token[@]}" -Dquarkus.http.host=127.0.0.1 \
      -Dquarkus.http.port="$port" -jar "${apps[$i]}/quarkus-run.jar"
    APP_PID=$STARTED_PID
    wait_until "$READY_TIMEOUT" curl -fsS "$APP_URL/q/health/ready" || die "Jobfoundry did not get ready; see $OUT/app-$i.log"
  fi
  AUTH_HEADER=()
  [ "${auth[$i]}" = 1 ] && AUTH_HEADER=(-H "Authorization: Bearer $BENCH_TOKEN")
  return 0
}

# The job the get shape reads: created through the API, its path from the Location header.
seed_job() {
  local location
  location=$(curl -fsS -o /dev/null -D - -X POST -H 'Content-Type: application/json' "${AUTH_HEADER[@]}" \
    --data '{"data":{"to":"someone@example.com","n":1}}' "$APP_URL/v1/jobs/bench" \
    | tr -d '\r' | sed -n 's/^[Ll]ocation: *//p')
  [ -n "$location" ] || die "creating the job to read returned no Location"
  echo "${location#http*://*/}"
}

# CPU clock ticks process $1 has used, user and system, all threads: utime and stime, fields 14 and
# 15 of /proc/PID/stat, counted after the command name, which may hold spaces.
cpu_ticks() { sed 's/^.*) /pid comm /' "/proc/$1/stat" | awk '{print $14 + $15}'; }

# The same ticks of process $1's threads by role, from /proc/PID/task/*/stat: "<event loops> <worker
# threads> <store>" (Vert.x' event loops, Quarkus' worker pool, the embedded store's committer and
# acknowledger; a thread's name is cut to 15 characters there). The rest (GC, the JIT, threads
# that ended) is the process' total less these.
thread_ticks() {
  local task stat name fields loops=0 workers=0 store=0
  for task in /proc/"$1"/task/*; do
    stat=$(cat "$task/stat" 2>/dev/null) || continue
    name=${stat#*(}
    name=${name%)*}
    read -ra fields <<<"${stat##*) }"
    case $name in
      vert.x-eventloo*) loops=$((loops + fields[11] + fields[12])) ;;
      executor-thread*) workers=$((workers + fields[11] + fields[12])) ;;
      jobfoundry-embe*) store=$((store + fields[11] + fields[12])) ;;
    esac
  done
  echo "$loops $workers $store"
}

# µs of CPU per request: $1 ticks over $2 requests.
per_request() { awk -v t="$1" -v n="$2" -v hz="$TICKS" 'BEGIN {printf "%.1f", t * 1e6 / hz / n}'; }

# Runs wrk for shape $1 against $APP_URL for $2 seconds; prints "<requests> <requests/s> <non-2xx>".
run_wrk() {
  local shape=$1 seconds=$2 url args=()
  case $shape in
    get) url="$APP_URL/$JOB_PATH" ;;
    404) url="$APP_URL/v1/jobs/bench/no-such-job" ;;
    create) url="$APP_URL/v1/jobs/bench"; args=(-s "$BENCH_WORK/create.lua") ;;
    *) die "unknown shape $shape" ;;
  esac
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" "${args[@]}" "${AUTH_HEADER[@]}" "$url" >"$BENCH_WORK/wrk.out" 2>&1 \
    || die "wrk failed: $(cat "$BENCH_WORK/wrk.out")"
  local requests rate bad
  requests=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$BENCH_WORK/wrk.out")
  rate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$BENCH_WORK/wrk.out")
  bad=$(sed -n 's/^ *Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' "$BENCH_WORK/wrk.out")
  echo "$requests $rate ${bad:-0}"
}

log "$ROUNDS rounds of ${SHAPES// /, }: wrk -t$THREADS -c$CONNECTIONS, ${WARMUP}s warm-up + ${DURATION}s measured; durability $DURABILITY; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
  for i in "${!apps[@]}"; do
    start_app "$i"
    JOB_PATH=$(seed_job)
    # Every shape is warmed up before any is measured: warmed and measured one after the other, a
    # shape measured first ran on code the JIT was still compiling (the 404 cost 1.5x as much
    # measured before GET as after it).
    for shape in $SHAPES; do
      run_wrk "$shape" "$WARMUP" >/dev/null
    done
    for shape in $SHAPES; do
      read -r loops0 workers0 store0 < <(thread_ticks "$APP_PID")
      before=$(cpu_ticks "$APP_PID")
      read -r requests rate bad < <(run_wrk "$shape" "$DURATION")
      after=$(cpu_ticks "$APP_PID")
      read -r loops1 workers1 store1 < <(thread_ticks "$APP_PID")
      expected_bad=0
      [ "$shape" = 404 ] && expected_bad=$requests
      [ "$bad" -eq "$expected_bad" ] || die "$shape: $bad of $requests answers had an unexpected status; see $OUT/app-$i.log"
      micros=$(per_request $((after - before)) "$requests")
      loops=$(per_request $((loops1 - loops0)) "$requests")
      workers=$(per_request $((workers1 - workers0)) "$requests")
      store=$(per_request $((store1 - store0)) "$requests")
      printf 'round %d, %-40s %-6s %8.0f requests/s  %6s µs of service CPU per request (event loops %s, workers %s, store %s)  (load %s)\n' \
        "$round" "${labels[$i]}:" "$shape" "$rate" "$micros" "$loops" "$workers" "$store" "$(cut -d' ' -f1 /proc/loadavg)" \
        | tee -a "$OUT/rounds.txt" >&2
      printf '{"round":%d,"app":"%s","shape":"%s","requests":%d,"requestsPerSecond":%s,"cpuMicrosPerRequest":%s,"eventLoopMicros":%s,"workerMicros":%s,"storeMicros":%s,"load":%s}\n' \
        "$round" "${labels[$i]}" "$shape" "$requests" "$rate" "$micros" "$loops" "$workers" "$store" \
        "$(cut -d' ' -f1 /proc/loadavg)" >>"$OUT/results.jsonl"
    done
    stop_pid "$APP_PID"
  done
done

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
field() { # field <app label> <shape> <json key>: that key of every matching run, one a line
  grep -F "\"app\":\"$1\"" "$OUT/results.jsonl" | grep -F "\"shape\":\"$2\"" | sed -n "s/.*\"$3\":\([0-9.]*\).*/\1/p"
}
{
  printf '%-40s %-7s %12s %14s %10s %9s %9s %9s   %s\n' app shape requests/s "CPU µs/req" "× bare" "loops" "workers" \
    "store" "runs (µs)"
  for shape in $SHAPES; do
    bare=$(field bare "$shape" cpuMicrosPerRequest | median)
    for i in "${!apps[@]}"; do
      cpu=$(field "${labels[$i]}" "$shape" cpuMicrosPerRequest | median)
      printf '%-40s %-7s %12.0f %14s %10s %9s %9s %9s   %s\n' "${labels[$i]}" "$shape" \
        "$(field "${labels[$i]}" "$shape" requestsPerSecond | median)" "$cpu" \
        "$(awk -v a="$cpu" -v b="$bare" 'BEGIN {printf "%.2f", a / b}')" \
        "$(field "${labels[$i]}" "$shape" eventLoopMicros | median)" "$(field "${labels[$i]}" "$shape" workerMicros | median)" \
        "$(field "${labels[$i]}" "$shape" storeMicros | median)" \
        "$(field "${labels[$i]}" "$shape" cpuMicrosPerRequest | paste -sd' ')"
    done
  done
  echo "(medians of $ROUNDS rounds; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
} | tee "$OUT/summary.txt"
