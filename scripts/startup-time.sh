#!/usr/bin/env bash
# Start-to-ready time of Jobfoundry: from launching the JVM to the first 200 from
# /q/health/ready (the store answers), on a fresh embedded store each run; and of a bare Quarkus
# REST application of the same Quarkus version (bench/bare-quarkus), the yardstick, to its first
# 200 from /ready.
#
#   scripts/startup-time.sh [RUNS]            build what the modes need, then measure them (5 runs)
#   scripts/startup-time.sh --no-build [RUNS] measure what an earlier run built under target/startup-time
#   MODES="bare-17 jar-17" scripts/startup-time.sh 9    only these modes (and only their builds)
#
# Modes (README, "Fast start"):
#   bare-17    the bare Quarkus REST application's fast-jar on JDK 17
#   jar-17     the default fast-jar on JDK 17
#   appcds-17  the jar with the AppCDS archive built by -Daot on JDK 17   (-XX:SharedArchiveFile, -Xshare:on)
#   bare-25    the bare application on JDK 25
#   jar-25     the default fast-jar on JDK 25
#   aot-25     the jar with the AOT cache recorded by -Daot verify on JDK 25 (-XX:AOTCache, -XX:AOTMode=on)
#   image-25   the jar with the AOT cache recorded as the container image records it
#              (src/main/docker/aot-training.sh, run here with JDK 25 in place of the image's run-java.sh)
# The modes are interleaved round by round, so a busy machine slows them alike; -Xshare:on and
# -XX:AOTMode=on make a run fail instead of silently starting without its archive. Every mode
# after a bare-NN one is also given as a ratio to it. JAVA_OPTS adds JVM flags to every mode.
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
read -r -a modes <<<"${MODES:-bare-17 jar-17 appcds-17 bare-25 jar-25 aot-25 image-25}"
JAVA_OPTS=${JAVA_OPTS:-}
needs() { [[ " ${modes[*]} " == *" $1"* ]]; } # needs <mode prefix>: whether a chosen mode starts so

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
  if needs bare-; then
    echo "building bare (bench/bare-quarkus)" >&2
    ./mvnw -B -q -f bench/bare-quarkus/pom.xml package -DskipTests >"$OUT/build-bare.log" 2>&1 \
      || { echo "build of bare failed; see $OUT/build-bare.log" >&2; exit 1; }
    rm -rf "${OUT:?}/bare"
    cp -a bench/bare-quarkus/target/quarkus-app "$OUT/bare"
  fi
  if needs jar-; then build "$JDK17_HOME" jar package -DskipTests; fi
  if needs image-; then
    if ! needs jar-; then build "$JDK17_HOME" jar package -DskipTests; fi
    rm -rf "${OUT:?}/image"
    cp -a "$OUT/jar" "$OUT/image"
    printf '#!/bin/sh\nexec "%s/bin/java" $JAVA_OPTS_APPEND -jar "%s/quarkus-run.jar"\n' "$JDK25_HOME" \
      "$(pwd)/$OUT/image" >"$OUT/image-launcher.sh"
    chmod +x "$OUT/image-launcher.sh"
    echo "recording the image's AOT cache (src/main/docker/aot-training.sh)" >&2
    AOT_CACHE="$(pwd)/$OUT/image/app.aot" AOT_LAUNCHER="$(pwd)/$OUT/image-launcher.sh" AOT_PORT=$((20000 + RANDOM % 20000)) \
      bash src/main/docker/aot-training.sh >"$OUT/build-image.log" 2>&1 \
      || { echo "recording the image's AOT cache failed; see $OUT/build-image.log" >&2; exit 1; }
  fi
  if needs appcds-; then build "$JDK17_HOME" appcds package -DskipTests -Daot; fi
  # The AOT cache is recorded while the integration tests run against the jar.
  if needs aot-; then
    build "$JDK25_HOME" aot verify -Daot -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false
  fi
fi
for mode in "${modes[@]}"; do
  case $mode in
    bare-*) needed=bare/quarkus-run.jar ;;
    jar-*) needed=jar/quarkus-run.jar ;;
    appcds-*) needed=appcds/app-cds.jsa ;;
    aot-*) needed=aot/app.aot ;;
    image-*) needed=image/app.aot ;;
    *) echo "unknown mode $mode" >&2; exit 1 ;;
  esac
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
  local java=$1 folder=$2 probe=/q/health/ready
  [[ $folder == bare ]] && probe=/ready # the bare application has no health checks
  shift 2
  local port store log pid begin code=000
  port=$(free_port)
  store=$(mktemp -d)
  log=$(mktemp)
  begin=$(date +%s%N)
  # shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
  (cd "$OUT/$folder" && exec "$java" $JAVA_OPTS "$@" -Dquarkus.http.port="$port" \
      -Djobfoundry.embedded.path="$store/jobfoundry.db" -jar quarkus-run.jar) >"$log" 2>&1 &
  pid=$!
  while [[ $code != 200 ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      if grep -q "Port $port seems to be in use" "$log"; then
        # Taken by another process since free_port looked (a shared machine): start again.
        rm -rf "$store" "$log"
        start_once "$java" "$folder" "$@"
        return
      fi
      echo "the $folder process ended before it was ready:" >&2
      cat "$log" >&2
      exit 1
    fi
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$port$probe" || true)
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
for ((round = 1; round <= RUNS; round++)); do
  for mode in "${modes[@]}"; do
    case $mode in
      bare-17) result=$(start_once "$JDK17_HOME/bin/java" bare) ;;
      bare-25) result=$(start_once "$JDK25_HOME/bin/java" bare) ;;
      jar-17) result=$(start_once "$JDK17_HOME/bin/java" jar) ;;
      appcds-17) result=$(start_once "$JDK17_HOME/bin/java" appcds -XX:SharedArchiveFile=app-cds.jsa -Xshare:on) ;;
      jar-25) result=$(start_once "$JDK25_HOME/bin/java" jar) ;;
      aot-25) result=$(start_once "$JDK25_HOME/bin/java" aot -XX:AOTCache=app.aot -XX:AOTMode=on) ;;
      image-25) result=$(start_once "$JDK25_HOME/bin/java" image -XX:AOTCache=app.aot -XX:AOTMode=on) ;;
    esac
    times[$mode]="${times[$mode]:-} ${result% *}"
    cpus[$mode]="${cpus[$mode]:-} ${result#* }"
  done
  echo "round $round/$RUNS:$(for m in "${modes[@]}"; do printf ' %s=%sms(cpu %sms)' "$m" "${times[$m]##* }" "${cpus[$m]##* }"; done)" >&2
done

printf '%-10s %8s %8s %7s %7s   %s\n' mode median "cpu" "× bare" "cpu ×" "runs (ms from launch to the first 200 from its readiness probe)"
ratio() { [[ -n $2 ]] && awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}' || echo -; }
bare_time='' bare_cpu=''
for mode in "${modes[@]}"; do
  t=$(tr ' ' '\n' <<<"${times[$mode]}" | grep . | median)
  c=$(tr ' ' '\n' <<<"${cpus[$mode]}" | grep . | median)
  if [[ $mode == bare-* ]]; then
    bare_time=$t bare_cpu=$c
  fi
  printf '%-10s %6sms %6sms %7s %7s   %s\n' "$mode" "$t" "$c" "$(ratio "$t" "$bare_time")" "$(ratio "$c" "$bare_cpu")" \
    "${times[$mode]# }"
done
echo "($(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
