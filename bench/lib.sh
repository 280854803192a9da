# Shared by bench/compare.sh and bench/load.sh (sourced, not run). Everything a script starts is
# recorded here and stopped by `cleanup` on exit, by process id only.

BENCH_STARTED_PIDS=()
BENCH_STOP_COMMANDS=()

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# Maven offline first (fast when the dependencies are cached), online when something is missing.
mvn_quiet() { ./mvnw -B -q -o "$@" || ./mvnw -B -q "$@"; }

# Packages the service (target/quarkus-app) and compiles the bench, writing the bench's class
# path to $1, so that the bench runs as a plain JVM beside the service, not inside Maven.
build_jar_and_bench() {
  local classpath_file=$1
  log "building the service jar and the bench (./mvnw package -DskipTests)"
  mvn_quiet -Pbench package -DskipTests dependency:build-classpath \
    -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=test
  BENCH_CP="target/test-classes:target/classes:$(cat "$classpath_file")"
}

bench_java() { java -cp "$BENCH_CP" io.jobfoundry.bench.Bench "$@"; }

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The first port from $1 up that nothing listens on: the peers never take their default ports,
# nor one another process (another service on 8080, say) already has.
free_port() {
  local port=$1
  while port_in_use "$port"; do port=$((port + 1)); done
  echo "$port"
}

# Polls `$2...` until it succeeds or $1 seconds pass.
wait_until() {
  local seconds=$1; shift
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || return 1
    sleep 0.2
  done
}

# Starts `$2...` in the background with its output in $1; sets STARTED_PID.
start_logged() {
  local logfile=$1; shift
  "$@" >"$logfile" 2>&1 &
  STARTED_PID=$!
  BENCH_STARTED_PIDS+=("$STARTED_PID")
}

# TERM, then KILL after 15 s; only the process given.
stop_pid() {
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 75); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$pid" 2>/dev/null || true
}

cleanup() {
  local pid cmd
  for cmd in "${BENCH_STOP_COMMANDS[@]}"; do eval "$cmd" >/dev/null 2>&1 || true; done
  for pid in "${BENCH_STARTED_PIDS[@]}"; do stop_pid "$pid"; done
  [ -n "${BENCH_WORK:-}" ] && rm -rf "$BENCH_WORK"
}

# Starts the packaged service ($5, default target/quarkus-app) on 127.0.0.1:$2 with a fresh store
# in $3, durability $1, output in $4; waits until it is ready; sets JOBFOUNDRY_PID and JOBFOUNDRY_URL.
# STORE=fdb runs it on the FoundationDB cluster FDB_CLUSTER_FILE names instead of the embedded store
# (durability then is FoundationDB's), under a key prefix of its own that is left in the cluster.
start_jobfoundry() {
  local durability=$1 port=$2 dir=$3 logfile=$4 app=${5:-target/quarkus-app}
  local store=()
  mkdir -p "$dir"
  if [ "${STORE:-embedded}" = fdb ]; then
    [ -n "${FDB_CLUSTER_FILE:-}" ] || die "STORE=fdb needs FDB_CLUSTER_FILE naming a FoundationDB cluster"
    store=(JOBFOUNDRY_STORE=fdb JOBFOUNDRY_FDB_CLUSTER_FILE="$FDB_CLUSTER_FILE"
      JOBFOUNDRY_FDB_KEY_PREFIX="jobfoundry-bench-$(date +%s)-$port")
  fi
  start_logged "$logfile" env "${store[@]}" JOBFOUNDRY_EMBEDDED_PATH="$dir/jobfoundry.db" \
    JOBFOUNDRY_EMBEDDED_DURABILITY="$durability" QUARKUS_HTTP_HOST=127.0.0.1 QUARKUS_HTTP_PORT="$port" \
    java -jar "$app/quarkus-run.jar"
  JOBFOUNDRY_PID=$STARTED_PID
  JOBFOUNDRY_URL="http://127.0.0.1:$port"
  wait_until 60 curl -fsS "$JOBFOUNDRY_URL/q/health/ready" || die "Jobfoundry did not get ready; see $logfile"
}
