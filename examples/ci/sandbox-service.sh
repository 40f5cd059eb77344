#!/usr/bin/env bash
# The sandbox as a CI service, in a plain shell (docs/ci-service.md): start it, wait until it is ready,
# create a workspace for this job, run the project's own tests against it, keep the delivery log.
#
#   PAYSANDBOX   how to run paysandbox (default: npx --yes paysandbox; in this repository: node dist/src/cli/main.js)
#   TEST_COMMAND the project's tests (default: npm test); they read SANDBOX_URL, MERCHANT_TOKEN, API_KEY, API_SECRET
#   OUT          where sandbox.log and deliveries.json go (default: sandbox-artifacts)
set -euo pipefail
PAYSANDBOX=${PAYSANDBOX:-npx --yes paysandbox}
TEST_COMMAND=${TEST_COMMAND:-npm test}
OUT=${OUT:-sandbox-artifacts}
mkdir -p "$OUT"
READY="$OUT/sandbox.ready"
rm -f "$READY"

# --port 0: any free port; --ready-file: the base URL, written once it answers.
$PAYSANDBOX start --port 0 --db :memory: --ready-file "$READY" > "$OUT/sandbox.log" 2>&1 &
SANDBOX_PID=$!
trap 'kill "$SANDBOX_PID" 2>/dev/null || true; wait "$SANDBOX_PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  [ -s "$READY" ] && break
  kill -0 "$SANDBOX_PID" 2>/dev/null || { cat "$OUT/sandbox.log"; exit 1; }
  sleep 0.1
done
[ -s "$READY" ] || { echo "the sandbox was not ready within 60 s" >&2; cat "$OUT/sandbox.log"; exit 1; }
SANDBOX_URL=$(cat "$READY")
export SANDBOX_URL

# A workspace: this job's own merchant, HMAC app and funded customer (gone after ttl_seconds).
WS=$(curl -sf -X POST "$SANDBOX_URL/_sandbox/workspaces" -H 'content-type: application/json' -d '{"ttl_seconds":3600}')
field() { echo "$WS" | node -p "JSON.parse(require('fs').readFileSync(0)).workspace.$1"; }
MERCHANT_TOKEN=$(field merchant.merchant_api_token)
API_KEY=$(field app.api_key)
API_SECRET=$(field app.api_secret)
export MERCHANT_TOKEN API_KEY API_SECRET

status=0
$TEST_COMMAND || status=$?

# The callbacks the sandbox sent during the tests, every attempt included: keep it as an artifact.
curl -sf "$SANDBOX_URL/_sandbox/deliveries?per_page=100" > "$OUT/deliveries.json"
echo "tests exited $status; sandbox log and delivery log in $OUT/"
exit "$status"
