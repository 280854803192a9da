#!/usr/bin/env bash
# Tests the dashboard (/ui) in a real browser: starts the packaged service on a free port with a
# throw-away embedded store, runs the Playwright tests (node's own test runner, Debian's Chromium)
# against it, and stops the service whatever happens. Needs node 20+, `npm ci` done in ui-tests/
# and /usr/bin/chromium (or CHROMIUM=path); .ci/run installs them.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=target/quarkus-app/quarkus-run.jar
# A jar older than the sources would test yesterday's dashboard.
if [ ! -f "$JAR" ] || [ -n "$(find src pom.xml -newer "$JAR" -print -quit)" ]; then
  echo "== building the service jar"
  ./mvnw -B -q package -DskipTests
fi
if [ ! -d ui-tests/node_modules/playwright-core ]; then
  echo "ui-tests/node_modules is missing: run (cd ui-tests && npm ci) first" >&2
  exit 1
fi

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"
# UI_TEST_SERVICE_OPTS: more -D options for the service, e.g. tokens, with JOBFOUNDRY_ADMIN_TOKEN
# and JOBFOUNDRY_VIEWER_TOKEN set to match (the tests' own calls and the viewer test use them).
# shellcheck disable=SC2086
java -Dquarkus.http.port="$port" -Djobfoundry.embedded.path="$work/db/jobfoundry.db" ${UI_TEST_SERVICE_OPTS:-} \
  -jar "$JAR" > "$work/service.log" 2>&1 &
service=$!

stop() {
  if kill -0 "$service" 2>/dev/null; then
    kill "$service" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$service" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$service" 2>/dev/null || true
  fi
  wait "$service" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

echo "== starting the service on $url"
started=$SECONDS
until curl -sf "$url/q/health/ready" > /dev/null; do
  if ! kill -0 "$service" 2>/dev/null || [ $((SECONDS - started)) -gt 180 ]; then
    echo "the service did not become ready; its log:" >&2
    cat "$work/service.log" >&2
    exit 1
  fi
  sleep 0.2
done
echo "   ready after $((SECONDS - started)) s"

echo "== dashboard tests (ui-tests/tests, Chromium ${CHROMIUM:-/usr/bin/chromium})"
rc=0
# One file at a time: each drives its own Chromium, and the machine may be small.
# Files, not a directory: node 20 searches a directory for tests, node 22 takes globs.
(cd ui-tests && JOBFOUNDRY_URL="$url" node --test --test-concurrency=1 ${UI_TESTS:-tests/*.test.js}) || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "== the service's log (last 100 lines)"
  tail -n 100 "$work/service.log"
fi
exit "$rc"
