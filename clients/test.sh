#!/usr/bin/env bash
# Tests the client libraries against the real packaged service: starts the jar on a free port with a
# throw-away embedded store and a token the clients send, runs the Java client's build (unit tests, then the *IT tests against the
# service) and the Python client's unittest suite, and stops the service whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

JAR=target/quarkus-app/quarkus-run.jar
# A jar older than the sources would test yesterday's service.
if [ ! -f "$JAR" ] || [ -n "$(find src pom.xml -newer "$JAR" -print -quit)" ]; then
  echo "== building the service jar"
  ./mvnw -B -q package -DskipTests
fi

work=$(mktemp -d)
# As an operator runs the service: with a token, which both clients send (JOBFOUNDRY_TOKEN).
JOBFOUNDRY_TOKEN=$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
export JOBFOUNDRY_TOKEN
token_hash=$(printf '%s' "$JOBFOUNDRY_TOKEN" | sha256sum | cut -d' ' -f1)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"
java -Dquarkus.http.port="$port" -Djobfoundry.embedded.path="$work/db/jobfoundry.db" \
  -Djobfoundry.auth.tokens.clients.hash="sha256:$token_hash" -Djobfoundry.auth.tokens.clients.roles=admin \
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

java_rc=0
echo "== Java client (clients/java)"
rm -rf clients/java/target/surefire-reports clients/java/target/failsafe-reports
./mvnw -B -q -f clients/java/pom.xml verify -Djobfoundry.url="$url" || java_rc=$?

py_rc=0
echo "== Python client (clients/python)"
(cd clients/python && JOBFOUNDRY_URL="$url" python3 -m unittest -v) > "$work/python.log" 2>&1 || py_rc=$?
cat "$work/python.log"

echo "== totals"
python3 - clients/java/target <<'PY'
import glob, sys, xml.etree.ElementTree as ET
for kind in ("surefire", "failsafe"):
    t = f = e = s = 0
    for path in glob.glob(f"{sys.argv[1]}/{kind}-reports/TEST-*.xml"):
        r = ET.parse(path).getroot()
        t += int(r.get("tests")); f += int(r.get("failures")); e += int(r.get("errors")); s += int(r.get("skipped"))
    label = "unit tests (stub service)" if kind == "surefire" else "tests against the service"
    print(f"java {label}: {t} run, {f} failed, {e} errors, {s} skipped")
PY
echo "python: $(grep -E '^Ran [0-9]+ tests' "$work/python.log" | tail -1), $(tail -1 "$work/python.log")"
echo "service log: $(grep -c -E ' (ERROR|WARN) ' "$work/service.log" || true) WARN/ERROR lines"
[ "$java_rc" -eq 0 ] && [ "$py_rc" -eq 0 ]
