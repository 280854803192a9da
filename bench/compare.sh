#!/usr/bin/env bash
# Runs one workload — producers create no-op jobs while workers fetch and complete them — against
# Jobfoundry (durability fsync, then os), Jobfoundry driven through its client libraries
# (clients/java, clients/python: their worker runtimes and producer calls, as a user of them would
# write it), and the job servers people would otherwise pick:
# beanstalkd (binlog on), BullMQ on Redis (AOF, everysec) and graphile-worker on PostgreSQL, one
# after the other on this machine, each alone while it runs. Writes target/bench/compare/
# WORKLOAD/results.{jsonl,md,json,png}. Every server listens on 127.0.0.1 on a non-default port,
# keeps its data in a temporary folder, and is stopped on exit.
#
# WORKLOAD=single (the default): one job per create, fetch and complete. WORKLOAD=bulk: creates
# in batches of 100, fetches of up to 16 jobs completed together, each system through its own
# bulk path (Jobfoundry's batch calls, BullMQ addBulk and a worker's concurrency, graphile-worker
# addJobs with its local queue and batched completion, beanstalkd's commands pipelined).
#
#   bench/compare.sh                          # defaults: 20,000 jobs, 16 workers, 4 producers
#   WORKLOAD=bulk bench/compare.sh            # the same, in batches
#   JOBS=2000 WARMUP=200 WARMUP_ROUNDS=1 bench/compare.sh     # a quick check
#   SYSTEMS="jobfoundry-os beanstalkd" bench/compare.sh
#   SYSTEMS="jobfoundry-os jobfoundry-java jobfoundry-python" bench/compare.sh   # raw HTTP beside the libraries
#
# Settings (environment): WORKLOAD (single), JOBS (20000), WORKERS (16), PRODUCERS (4), TIMEOUT
# (90 s per run, each warm-up and the measured run), WARMUP (20000 jobs per warm-up run, not
# recorded), WARMUP_ROUNDS (20: at most so many warm-up runs) and JIT_SETTLED (5: they stop once the
# server's JIT compiler took at most this percent of its CPU in one; a server without a JIT warms up
# once), SYSTEMS (all seven), OUT (target/bench/compare/WORKLOAD), CLIENT (raw: the bench's HTTP/1.1 client; jdk:
# java.net.http) for the jobfoundry-fsync and -os rows, LIBRARY_DURABILITY (os: the durability of
# the service the jobfoundry-java and jobfoundry-python rows run against).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

WORKLOAD=${WORKLOAD:-single}
case $WORKLOAD in single | bulk) ;; *) echo "WORKLOAD: single | bulk, not $WORKLOAD" >&2; exit 2 ;; esac
JOBS=${JOBS:-20000}
WORKERS=${WORKERS:-16}
PRODUCERS=${PRODUCERS:-4}
TIMEOUT=${TIMEOUT:-90}
WARMUP=${WARMUP:-20000}
WARMUP_ROUNDS=${WARMUP_ROUNDS:-20}
JIT_SETTLED=${JIT_SETTLED:-5}
ALL_SYSTEMS="jobfoundry-fsync jobfoundry-os jobfoundry-java jobfoundry-python beanstalkd bullmq graphile-worker"
SYSTEMS=${SYSTEMS:-$ALL_SYSTEMS}
OUT=${OUT:-target/bench/compare/$WORKLOAD}
CLIENT=${CLIENT:-raw}
LIBRARY_DURABILITY=${LIBRARY_DURABILITY:-os}
case $LIBRARY_DURABILITY in fsync | os) ;; *) echo "LIBRARY_DURABILITY: fsync | os, not $LIBRARY_DURABILITY" >&2; exit 2 ;; esac

BENCH_WORK=$(mktemp -d /tmp/jobfoundry-compare.XXXXXX)
chmod 755 "$BENCH_WORK" # PostgreSQL runs as its own user and must reach its data folder
trap cleanup EXIT
mkdir -p "$OUT/logs"
rm -f "$OUT/results.jsonl"

wants() { [[ " $SYSTEMS " == *" $1 "* ]]; }

install_peers() {
  local missing=()
  command -v beanstalkd >/dev/null || missing+=(beanstalkd)
  command -v redis-server >/dev/null || missing+=(redis-server)
  ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
  if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || die "install ${missing[*]} (Debian packages) first, or run as root"
    log "installing ${missing[*]}"
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
  fi
  # Debian starts its packaged servers where systemd runs; the bench starts its own instead.
  if [ ! -d bench/node/node_modules ] || [ bench/node/package-lock.json -nt bench/node/node_modules ]; then
    log "npm install in bench/node (bullmq, ioredis, graphile-worker, as locked)"
    # Not `npm ci`: npm 11 leaves other platforms' optional packages (msgpackr-extract) out of
    # the lock and then refuses it; `install --no-save` takes the locked versions, writes nothing.
    (cd bench/node && npm install --no-save --no-audit --no-fund --loglevel=error)
  fi
}

# Runs the comparison workload for one system: $1 system, $2 label, $3 version, $4 durability,
# $5 server pid, then the system's own options.
run_compare() {
  local system=$1 label=$2 version=$3 durability=$4 pid=$5; shift 5
  log "running $label, workload $WORKLOAD ($JOBS jobs, $WORKERS workers, $PRODUCERS producers)"
  timeout $(((WARMUP_ROUNDS + 1) * TIMEOUT + 120)) java -cp "$BENCH_CP" io.jobfoundry.bench.Bench compare "$system" \
    --workload "$WORKLOAD" --jobs "$JOBS" --workers "$WORKERS" --producers "$PRODUCERS" --timeout "$TIMEOUT" \
    --warmup "$WARMUP" --warmup-rounds "$WARMUP_ROUNDS" --jit-settled "$JIT_SETTLED" \
    --label "$label" --version "$version" --durability "$durability" --server-pid "$pid" \
    --out "$OUT/results.jsonl" "$@" | tee -a "$OUT/logs/bench.log"
}

durability_of() {
  case $1 in
    fsync) echo '`fsync`: creations and finishes synced to disk before the answer, leases and heartbeats by the next sync (group commit; the WAL is synced with fdatasync before the answer)' ;;
    os) echo '`os`: survives a crash of the process, not of the machine (SQLite synchronous=NORMAL, WAL)' ;;
  esac
}

jobfoundry() {
  local mode=$1 port
  port=$(free_port 18180)
  start_jobfoundry "$mode" "$port" "$BENCH_WORK/jobfoundry-$mode" "$OUT/logs/jobfoundry-$mode.log"
  run_compare jobfoundry "Jobfoundry ($mode)" "$(jobfoundry_version)" "$(durability_of "$mode")" "$JOBFOUNDRY_PID" \
    --url "$JOBFOUNDRY_URL" --client "$CLIENT"
  stop_pid "$JOBFOUNDRY_PID"
}

# Jobfoundry through a client library ($1: java or python), in durability LIBRARY_DURABILITY: the
# library's own worker runtime and producer calls, in a worker and a producer process of their own.
jobfoundry_library() {
  local lang=$1 mode=$LIBRARY_DURABILITY port
  port=$(free_port 18180)
  start_jobfoundry "$mode" "$port" "$BENCH_WORK/jobfoundry-$lang" "$OUT/logs/jobfoundry-$lang.log"
  case $lang in
    java) run_compare jobfoundry-java "Jobfoundry ($mode), Java client" "$(jobfoundry_version); $(client_version clients/java)" \
      "$(durability_of "$mode")" "$JOBFOUNDRY_PID" --url "$JOBFOUNDRY_URL" --classpath "$JAVA_CLIENT_CP" ;;
    python) run_compare jobfoundry-python "Jobfoundry ($mode), Python client" "$(jobfoundry_version); $(client_version clients/python)" \
      "$(durability_of "$mode")" "$JOBFOUNDRY_PID" --url "$JOBFOUNDRY_URL" --python-client clients/python ;;
  esac
  stop_pid "$JOBFOUNDRY_PID"
}

# Builds clients/java and its compare driver (clients/java/bench/compare) in one Maven reactor, so that the row
# runs this tree's client jar, not one installed in ~/.m2; sets JAVA_CLIENT_CP.
build_java_client() {
  log "building the Java client library and its compare driver (clients/java, clients/java/bench/compare)"
  mvn_quiet -f clients/java/bench/compare/reactor.xml -pl :jobfoundry-client-compare-driver -am package -DskipTests \
    dependency:build-classpath -Dmdep.outputFile=target/classpath.txt \
    || die "the Java client library (clients/java) or its compare driver (clients/java/bench/compare) did not build"
  local jar driver=clients/java/bench/compare/target/classes/io/jobfoundry/client/bench/CompareDriver.class
  jar=$(find clients/java/target -maxdepth 1 -name 'jobfoundry-client-*.jar' 2>/dev/null | head -1 || true)
  [ -n "$jar" ] && [ -f "$driver" ] && [ -s clients/java/bench/compare/target/classpath.txt ] \
    || die "the Java client library is not built: no clients/java/target/jobfoundry-client-*.jar, $driver or clients/java/bench/compare/target/classpath.txt"
  grep -q "$(basename "$jar")" clients/java/bench/compare/target/classpath.txt \
    || die "clients/java/bench/compare/target/classpath.txt does not name $jar: the row would not run this tree's client"
  JAVA_CLIENT_CP="$PWD/clients/java/bench/compare/target/classes:$(cat clients/java/bench/compare/target/classpath.txt)"
}

# The Python client needs nothing built, only Python 3.9+ able to import it from clients/python.
check_python_client() {
  command -v python3 >/dev/null || die "python3 is not installed: the jobfoundry-python row needs Python 3.9+"
  PYTHONPATH=clients/python python3 -c 'import sys, jobfoundry; assert sys.version_info >= (3, 9), sys.version' \
    || die "the Python client library (clients/python) cannot be imported by $(python3 --version 2>&1)"
}

# The client library's folder ($1) and the commit it is at, +changes if it differs from it.
client_version() {
  local commit
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD -- "$1" 2>/dev/null || commit="$commit+changes"
  echo "$1 ($commit)"
}

jobfoundry_version() {
  local commit
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD -- src pom.xml 2>/dev/null || commit="$commit+changes"
  echo "Jobfoundry $(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -1) ($commit), embedded store"
}

beanstalkd_run() {
  local port dir=$BENCH_WORK/beanstalkd
  port=$(free_port 11390)
  mkdir -p "$dir"
  # -b: the binlog; fsync stays at beanstalkd's default (at most every 50 ms, -f 50).
  start_logged "$OUT/logs/beanstalkd.log" beanstalkd -l 127.0.0.1 -p "$port" -b "$dir"
  local pid=$STARTED_PID
  wait_until 20 port_in_use "$port" || die "beanstalkd did not start"
  run_compare beanstalkd "beanstalkd" "$(beanstalkd -v)" \
    "binlog on (\`-b\`), fsync at most every 50 ms (default \`-f\`)" "$pid" --port "$port"
  stop_pid "$pid"
}

bullmq_run() {
  local port dir=$BENCH_WORK/redis
  port=$(free_port 16390)
  mkdir -p "$dir"
  # AOF only (no RDB snapshots, whose forks would land in some runs and not others).
  start_logged "$OUT/logs/redis.log" redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" \
    --appendonly yes --appendfsync everysec --save '' --daemonize no
  local pid=$STARTED_PID
  wait_until 20 redis-cli -p "$port" ping || die "redis-server did not start"
  local aof fsync
  aof=$(redis-cli -p "$port" config get appendonly | tail -1)
  fsync=$(redis-cli -p "$port" config get appendfsync | tail -1)
  run_compare bullmq "BullMQ" "bullmq $(npm_version bullmq) on $(redis-server --version | awk '{print "Redis " substr($3, 3)}')" \
    "Redis appendonly $aof, appendfsync $fsync, no RDB" "$pid" --port "$port" --node-dir bench/node
  stop_pid "$pid"
}

graphile_run() {
  local port pg_bin dir=$BENCH_WORK/postgres as_pg=()
  port=$(free_port 15490)
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  # PostgreSQL refuses to run as root: as root, run it as the postgres user the package made.
  [ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
  mkdir -p "$dir"
  [ "$(id -u)" = 0 ] && chown postgres "$dir"
  "${as_pg[@]}" "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$OUT/logs/initdb.log" 2>&1
  BENCH_STOP_COMMANDS+=("${as_pg[*]} $pg_bin/pg_ctl -D $dir/data -m fast stop")
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/postgres.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir" start >/dev/null
  local pid url="postgres://postgres@127.0.0.1:$port/postgres" sync fsync
  pid=$(head -1 "$dir/data/postmaster.pid")
  sync=$(psql "$url" -Atc 'show synchronous_commit')
  fsync=$(psql "$url" -Atc 'show fsync')
  run_compare graphile-worker "graphile-worker" \
    "graphile-worker $(npm_version graphile-worker) on $(psql "$url" -Atc 'show server_version' | cut -d' ' -f1 | sed 's/^/PostgreSQL /')" \
    "PostgreSQL synchronous_commit=$sync, fsync=$fsync" "$pid" --connection "$url" --node-dir bench/node
  "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
  cp "$dir/postgres.log" "$OUT/logs/postgres.log" 2>/dev/null || true
}

npm_version() { node -p "require('./bench/node/node_modules/$1/package.json').version"; }

for system in $SYSTEMS; do
  [[ " $ALL_SYSTEMS " == *" $system "* ]] || die "unknown system $system ($ALL_SYSTEMS)"
done
install_peers
build_jar_and_bench "$OUT/classpath.txt"
if wants jobfoundry-java; then build_java_client; fi
if wants jobfoundry-python; then check_python_client; fi
log "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
for system in $SYSTEMS; do
  case $system in
    jobfoundry-fsync) jobfoundry fsync ;;
    jobfoundry-os) jobfoundry os ;;
    jobfoundry-java) jobfoundry_library java ;;
    jobfoundry-python) jobfoundry_library python ;;
    beanstalkd) beanstalkd_run ;;
    bullmq) bullmq_run ;;
    graphile-worker) graphile_run ;;
    *) die "unknown system $system ($ALL_SYSTEMS)" ;;
  esac
done
bench_java report "$OUT"
