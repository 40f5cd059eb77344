#!/usr/bin/env bash
# The sandbox as a CI service, in a plain shell (docs/ci-service.md): start it, wait until it is ready,
# create a workspace for this job, run the project's own tests against it, keep the delivery log.
#
#   PAYSANDBOX   how to run paysandbox (default: node_modules/.bin/paysandbox, the package installed in your
#                project from a tarball, a git URL or a path: docs/ci-service.md#installing-paysandbox;
#                in a checkout of paysandbox itself: node dist/src/cli/main.js). paysandbox is not on the
#                npm registry: never `npx --yes paysandbox`, which would fetch whatever has that name there.
#   TEST_COMMAND the project's tests (default: npm test); they read SANDBOX_URL, MERCHANT_TOKEN, API_KEY, API_SECRET
#   OUT          where sandbox.log and deliveries.json go (default: sandbox-artifacts)
set -euo pipefail
PAYSANDBOX=${PAYSANDBOX:-node_modules/.bin/paysandbox}
if [ "$PAYSANDBOX" = node_modules/.bin/paysandbox ] && [ ! -x "$PAYSANDBOX" ]; then
  echo "paysandbox is not installed in this project (no node_modules/.bin/paysandbox): install it from a" \
    "paysandbox checkout first, e.g. npm install --save-dev ./paysandbox-<version>.tgz (npm pack in the checkout)," \
    "or set PAYSANDBOX to the command that runs it (docs/ci-service.md#installing-paysandbox)" >&2
  exit 2
fi
TEST_COMMAND=${TEST_COMMAND:-npm test}
OUT=${OUT:-sandbox-artifacts}
mkdir -p "$OUT"
READY="$OUT/sandbox.ready"
rm -f "$READY"

# --port 0: any free port; --ready-file: the base URL, written once it answers. Started in a process
# group of its own (set -m), so that the trap stops the whole group: a wrapper such as npx or npm exec
# runs node as its child, and killing the wrapper alone would leave the sandbox running.
set -m
$PAYSANDBOX start --port 0 --db :memory: --ready-file "$READY" > "$OUT/sandbox.log" 2>&1 &
SANDBOX_PID=$!
set +m
stop_sandbox() {
  kill -TERM -- "-$SANDBOX_PID" 2>/dev/null || return 0
  wait "$SANDBOX_PID" 2>/dev/null || true
  # The group's other processes (node under a wrapper) end on their own SIGTERM: wait up to 10 s.
  for _ in $(seq 1 100); do kill -0 -- "-$SANDBOX_PID" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL -- "-$SANDBOX_PID" 2>/dev/null || true
}
trap stop_sandbox EXIT
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

# The callbacks the sandbox sent during the tests, every attempt included, all of them (page after page):
# keep it as an artifact. Not reading it (the sandbox died during the tests) is a warning: the exit
# status stays the tests' own.
if $PAYSANDBOX deliveries --all --json --url "$SANDBOX_URL" > "$OUT/deliveries.json"; then
  echo "tests exited $status; sandbox log and delivery log in $OUT/"
else
  echo "warning: could not read the delivery log (did the sandbox stop? see $OUT/sandbox.log)" >&2
  echo "tests exited $status; sandbox log in $OUT/ (no delivery log)"
fi
exit "$status"
