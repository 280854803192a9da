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
service=
stop_service() {
  if [ -n "$service" ] && kill -0 "$service" 2>/dev/null; then
    kill "$service" 2>/dev/null || true
    for _ in $(seq 1 150); do kill -0 "$service" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$service" 2>/dev/null || true
  fi
  [ -z "$service" ] || wait "$service" 2>/dev/null || true
  service=
}
trap 'stop_service; rm -rf "$work"' EXIT

# A random token, as an operator would mint one, and its configured hash.
token() { head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '='; }
hash() { printf '%s' "$1" | sha256sum | cut -d' ' -f1; }

# Runs every test file against a fresh service started with the -D options given; answers the
# tests' exit status.
suite() {
  local label=$1; shift
  local port url rc=0 started
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  url="http://127.0.0.1:$port"
  rm -rf "$work/db"
  # UI_TEST_SERVICE_OPTS: more -D options for the service.
  # shellcheck disable=SC2086
  java -Dquarkus.http.port="$port" -Djobfoundry.embedded.path="$work/db/jobfoundry.db" "$@" \
    ${UI_TEST_SERVICE_OPTS:-} -jar "$JAR" > "$work/service.log" 2>&1 &
  service=$!
  echo "== $label: starting the service on $url"
  started=$SECONDS
  until curl -sf "$url/q/health/ready" > /dev/null; do
    if ! kill -0 "$service" 2>/dev/null || [ $((SECONDS - started)) -gt 180 ]; then
      echo "the service did not become ready; its log:" >&2
      cat "$work/service.log" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "   ready after $((SECONDS - started)) s"
  echo "== $label: dashboard tests (ui-tests/tests, Chromium ${CHROMIUM:-/usr/bin/chromium})"
  # One file at a time: each drives its own Chromium, and the machine may be small.
  # Files, not a directory: node 20 searches a directory for tests, node 22 takes globs.
  (cd ui-tests && JOBFOUNDRY_URL="$url" node --test --test-concurrency=1 ${UI_TESTS:-tests/*.test.js}) || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "== the service's log (last 100 lines)"
    tail -n 100 "$work/service.log"
  fi
  stop_service
  return "$rc"
}

# As the README's first start runs it: no token configured, served to loopback clients only.
suite "no tokens (loopback)"

# As an operator runs it: every call needs a token; an admin's drives the tests, a viewer's sees
# no action buttons.
admin=$(token)
viewer=$(token)
export JOBFOUNDRY_ADMIN_TOKEN=$admin JOBFOUNDRY_VIEWER_TOKEN=$viewer
suite "with tokens" \
  -Djobfoundry.auth.tokens.ui-admin.hash="sha256:$(hash "$admin")" -Djobfoundry.auth.tokens.ui-admin.roles=admin \
  -Djobfoundry.auth.tokens.ui-viewer.hash="sha256:$(hash "$viewer")" -Djobfoundry.auth.tokens.ui-viewer.roles=viewer
