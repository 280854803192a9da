#!/usr/bin/env bash
# The microbenchmarks (JMH, under src/test/java, e.g. io.jobfoundry.auth.TokenCheckBenchmark), in a
# JVM of their own with the bench's class path, so that JMH's forks find the classes (inside
# `mvn exec:java` they would not).
#
#   bench/jmh.sh TokenCheckBenchmark          # one benchmark class (a JMH regex)
#   bench/jmh.sh TokenCheckBenchmark -f 3     # any JMH option after it
#   bench/jmh.sh -l                           # list them
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

BENCH_WORK=$(mktemp -d /tmp/jobfoundry-jmh.XXXXXX)
trap cleanup EXIT
build_jar_and_bench "$BENCH_WORK/classpath.txt"
bench_java jmh "$@"
