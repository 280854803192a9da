#!/bin/bash
# The image's AOT training run (JDK 25, JEP 514), run once by `docker build`: starts the service
# exactly as the image's entry point does, but with -XX:AOTCacheOutput, drives the calls every
# replica serves (create, read, accept, heartbeat, finish, a 404, health, metrics), then stops it
# with SIGTERM as Kubernetes does. On that exit the JVM assembles /deployments/app.aot (in a child
# JVM it launches and waits for) from the classes the run loaded and linked and the methods it
# profiled. The store lives in a temporary folder, removed afterwards: nothing of the run but the
# cache stays in the image.
#
# AOT_CACHE, AOT_LAUNCHER (a command that starts the service with $JAVA_OPTS_APPEND among its JVM
# options) and AOT_PORT default to the image's; they let the run be tried outside the image.
set -euo pipefail

cache=${AOT_CACHE:-/deployments/app.aot}
launcher=${AOT_LAUNCHER:-/opt/jboss/container/java/run/run-java.sh}
store=$(mktemp -d)
port=${AOT_PORT:-8080}

# run-java.sh, as in production, so the JVM options (its container ergonomics, JAVA_OPTS_APPEND)
# are those the cache will be used with; only the AOT flag differs.
JAVA_OPTS_APPEND="${JAVA_OPTS_APPEND:-} -XX:AOTCacheOutput=$cache -Dquarkus.http.port=$port" \
  JOBFOUNDRY_EMBEDDED_PATH="$store/jobfoundry.db" \
  $launcher &
pid=$!

# HTTP/1.1 over bash's /dev/tcp: the image needs no HTTP client. Prints the status line, the
# headers and the body; fails when nothing listens.
http() { # http <method> <path> [body]
  local body=${3:-}
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf '%s %s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s' \
    "$1" "$2" "${#body}" "$body" >&3
  cat <&3
  exec 3<&-
}
call() { http "$@" | sed '1,/^\r\{0,1\}$/d'; } # the answer's body only
ready() { http GET /q/health/ready 2>/dev/null | head -1 | grep -q ' 200 '; }
alive() { kill -0 "$pid" 2>/dev/null || { echo "the training run's service ended early (see above)" >&2; exit 1; }; }

for _ in $(seq 600); do
  alive
  ready && break
  sleep 0.1
done
ready || { echo "the training run's service did not get ready" >&2; exit 1; }
for round in $(seq 100); do
  call PUT "/v1/jobs/training/job-$round" '{"data":{"n":1},"priority":"high"}' >/dev/null
  call POST /v1/jobs/training '{"data":{"n":2}}' >/dev/null
  call GET "/v1/jobs/training/job-$round" >/dev/null
  call GET /v1/jobs/training/no-such-job >/dev/null
  # The lease of the job just accepted, then its heartbeat and finish with it.
  answer=$(call POST /v1/accept '{"types":["training"],"max":1,"worker":"training"}')
  id=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' <<<"$answer")
  lease=$(sed -n 's/.*"lease":"\([^"]*\)".*/\1/p' <<<"$answer")
  if [[ -n $id && -n $lease ]]; then
    call POST "/v1/jobs/training/$id/heartbeat" "{\"lease\":\"$lease\"}" >/dev/null
    call POST "/v1/jobs/training/$id/finish" "{\"lease\":\"$lease\",\"outcome\":\"succeeded\"}" >/dev/null
  fi
done
call GET /v1/jobs/training >/dev/null
call GET /v1/types/training >/dev/null
call GET /q/metrics >/dev/null
call GET /q/health >/dev/null

alive # not another process on the port: this run's service answered all along
kill -TERM "$pid"
wait "$pid" || true # a JVM ended by SIGTERM exits with 143
rm -rf "$store"
[[ -s $cache ]] || { echo "the training run wrote no AOT cache at $cache" >&2; exit 1; }
echo "AOT cache: $(du -h "$cache" | cut -f1) at $cache"
