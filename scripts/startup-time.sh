#!/usr/bin/env bash
# Start-to-ready time of Jobfoundry: from launching the JVM to the first 200 from
# /q/health/ready (the store answers), on a fresh embedded store each run.
#
#   scripts/startup-time.sh [RUNS]            build the three packagings, then measure all four modes
#   scripts/startup-time.sh --no-build [RUNS] measure what an earlier run built under target/startup-time
#
# Modes (README, "Fast start"):
#   jar-17     the default fast-jar on JDK 17
#   appcds-17  the jar with the AppCDS archive built by -Daot on JDK 17   (-XX:SharedArchiveFile, -Xshare:on)
#   jar-25     the default fast-jar on JDK 25
#   aot-25     the jar with the AOT cache recorded by -Daot verify on JDK 25 (-XX:AOTCache, -XX:AOTMode=on)
# The modes are interleaved round by round, so a busy machine slows them alike; -Xshare:on and
# -XX:AOTMode=on make a run fail instead of silently starting without its archive.
#
# JDK17_HOME and JDK25_HOME choose the JDKs (defaults: the machine's OpenJDK 17 and Temurin 25).
set -euo pipefail

cd "$(dirname "$0")/.."
JDK17_HOME=${JDK17_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
JDK25_HOME=${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
OUT=target/startup-time
BUILD=1
if [[ ${1:-} == --no-build ]]; then
  BUILD=0
  shift
fi
RUNS=${1:-5}

build() { # build <jdk home> <folder> <maven args...>
  local jdk=$1 folder=$2
  shift 2
  echo "building $folder with $("$jdk/bin/java" -version 2>&1 | head -1)" >&2
  JAVA_HOME=$jdk ./mvnw -B -q "$@" >"$OUT/build-$folder.log" 2>&1 \
    || { echo "build of $folder failed; see $OUT/build-$folder.log" >&2; exit 1; }
  rm -rf "${OUT:?}/$folder"
  cp -a target/quarkus-app "$OUT/$folder" # -a: the archives check the jars' modification times
}

if ((BUILD)); then
  mkdir -p "$OUT"
  # The builds replace target/quarkus-app; each result is copied aside.
  build "$JDK17_HOME" jar package -DskipTests
  build "$JDK17_HOME" appcds package -DskipTests -Daot
  # The AOT cache is recorded while the integration tests run against the jar.
  build "$JDK25_HOME" aot verify -Daot -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false
fi
for needed in jar/quarkus-run.jar appcds/app-cds.jsa aot/app.aot; do
  [[ -f $OUT/$needed ]] || { echo "missing $OUT/$needed: run without --no-build" >&2; exit 1; }
done

free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 20000))
    ss -ltn "sport = :$port" | grep -q LISTEN || { echo "$port"; return; }
  done
}

# One start: prints the milliseconds from launch to the first 200 from readiness, and the CPU
# milliseconds the process had used by then (user + system, all its threads): the second depends
# much less on what else the machine is doing.
start_once() { # start_once <java> <folder> <jvm flags...>
  local java=$1 folder=$2
  shift 2
  local port store log pid begin code=000
  port=$(free_port)
  store=$(mktemp -d)
  log=$(mktemp)
  begin=$(date +%s%N)
  (cd "$OUT/$folder" && exec "$java" "$@" -Dquarkus.http.port="$port" \
      -Djobfoundry.embedded.path="$store/jobfoundry.db" -jar quarkus-run.jar) >"$log" 2>&1 &
  pid=$!
  while [[ $code != 200 ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "the $folder process ended before it was ready:" >&2
      cat "$log" >&2
      exit 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port/q/health/ready" || true)
    [[ $code == 200 ]] || sleep 0.005
  done
  local wall=$((($(date +%s%N) - begin) / 1000000)) stat
  read -r -a stat <"/proc/$pid/stat"
  echo "$wall $(((stat[13] + stat[14]) * 1000 / TICKS))"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  rm -rf "$store" "$log"
}

TICKS=$(getconf CLK_TCK)

median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

declare -A times cpus
modes=(jar-17 appcds-17 jar-25 aot-25)
for ((round = 1; round <= RUNS; round++)); do
  for mode in "${modes[@]}"; do
    case $mode in
      jar-17) result=$(start_once "$JDK17_HOME/bin/java" jar) ;;
      appcds-17) result=$(start_once "$JDK17_HOME/bin/java" appcds -XX:SharedArchiveFile=app-cds.jsa -Xshare:on) ;;
      jar-25) result=$(start_once "$JDK25_HOME/bin/java" jar) ;;
      aot-25) result=$(start_once "$JDK25_HOME/bin/java" aot -XX:AOTCache=app.aot -XX:AOTMode=on) ;;
    esac
    times[$mode]="${times[$mode]:-} ${result% *}"
    cpus[$mode]="${cpus[$mode]:-} ${result#* }"
  done
  echo "round $round/$RUNS:$(for m in "${modes[@]}"; do printf ' %s=%sms(cpu %sms)' "$m" "${times[$m]##* }" "${cpus[$m]##* }"; done)" >&2
done

printf '%-10s %8s %8s   %s\n' mode median "cpu" "runs (ms from launch to the first 200 from /q/health/ready)"
for mode in "${modes[@]}"; do
  printf '%-10s %6sms %6sms   %s\n' "$mode" "$(tr ' ' '\n' <<<"${times[$mode]}" | grep . | median)" \
    "$(tr ' ' '\n' <<<"${cpus[$mode]}" | grep . | median)" "${times[$mode]# }"
done
echo "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
