#!/usr/bin/env bash
# Smoke test of the standalone binary: builds dist/mds, runs a copy from an empty temp dir outside the
# repo with an empty environment (no node_modules, no bun or node on PATH), checks a few routes, a clean
# SIGTERM stop, and a restart on the same data dir. Prints one PASS/FAIL line; exit 0 only on PASS.
# Usage: scripts/smoke-binary.sh [--no-build | --binary PATH]
#   (default: build dist/mds and test it; --no-build: test the existing dist/mds; --binary: test PATH)
# Each check is a function `check_<name>` run by run_check; add a check by writing one and listing it in main.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEV_KEY='smoke-key-123'
METRICS_TOKEN='smoke-metrics-token-0123456789'
START_TIMEOUT_S=60
STOP_TIMEOUT_S=20
HTTP_TIMEOUT_S=10

WORK=''
SERVER_PID=''
PORT=''
LOG=''
FAILED=()
PASSED=0

say() { printf 'smoke-binary: %s\n' "$*"; }

cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [[ -n "$WORK" ]]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'say "interrupted"; exit 130' INT TERM

die() {
  say "FAIL: $*"
  if [[ -n "$LOG" && -f "$LOG" ]]; then
    say "last lines of $(basename "$LOG"):"
    tail -n 20 "$LOG" | sed 's/^/  | /'
  fi
  exit 1
}

# ---- server lifecycle (failures here stop the run) ----

# start_server LOGNAME: starts the copied binary with nothing from this shell's environment.
start_server() {
  LOG="$WORK/$1.log"
  PORT=''
  (cd "$WORK" && exec env -i PATH="$WORK/empty-path" HOME="$WORK" TMPDIR="$WORK/tmp" \
    ./mds serve --port 0 --host 127.0.0.1 --data-dir "$WORK/data" \
    --history-days 2 --history-years 0 --dev-key "$DEV_KEY" --metrics-token "$METRICS_TOKEN" >"$LOG" 2>&1) &
  SERVER_PID=$!
  local deadline=$((SECONDS + START_TIMEOUT_S))
  while [[ -z "$PORT" ]]; do
    kill -0 "$SERVER_PID" 2>/dev/null || die "mds exited before serving"
    ((SECONDS < deadline)) || die "mds did not log 'serving REST on' within ${START_TIMEOUT_S}s"
    PORT="$(sed -n 's|.*serving REST on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$LOG" | head -n 1)"
    [[ -n "$PORT" ]] || sleep 0.2
  done
  say "started ($1): pid $SERVER_PID, port $PORT"
}

# stop_server: SIGTERM, then expects exit code 0 within STOP_TIMEOUT_S.
stop_server() {
  kill -TERM "$SERVER_PID"
  local deadline=$((SECONDS + STOP_TIMEOUT_S))
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    ((SECONDS < deadline)) || die "mds did not exit within ${STOP_TIMEOUT_S}s of SIGTERM"
    sleep 0.1
  done
  local code=0
  wait "$SERVER_PID" || code=$?
  SERVER_PID=''
  [[ "$code" == 0 ]] || die "mds exited with code $code after SIGTERM (expected 0)"
  grep -q 'stopped; everything written is on disk' "$LOG" || die "mds exited without logging its clean stop"
  say "stopped cleanly (exit 0)"
}

# ---- helpers for checks (each check runs in a subshell under set -e: any failing command fails it) ----

# http_get PATH [API_KEY]: writes the body to $WORK/body and prints the status code.
http_get() {
  local headers=()
  if [[ $# -ge 2 ]]; then headers=(-H "x-api-key: $2"); fi
  curl -sS --max-time "$HTTP_TIMEOUT_S" -o "$WORK/body" -w '%{http_code}' ${headers[@]+"${headers[@]}"} "http://127.0.0.1:$PORT$1"
}

# expect_get STATUS PATH [API_KEY]: fails unless the GET answers STATUS.
expect_get() {
  local want="$1" got
  shift
  got="$(http_get "$@")"
  if [[ "$got" != "$want" ]]; then
    echo "GET $1: status $got, expected $want; body: $(head -c 300 "$WORK/body")" >&2
    return 1
  fi
}

# expect_json 'JS expression over j': fails unless the last body parses as JSON and the expression holds.
expect_json() {
  node -e '
    const body = require("fs").readFileSync(process.argv[1], "utf8");
    let j;
    try { j = JSON.parse(body); } catch { console.error("not JSON: " + body.slice(0, 300)); process.exit(1); }
    if (!(new Function("j", "return (" + process.argv[2] + ");"))(j)) {
      console.error("expected " + process.argv[2] + "; body: " + body.slice(0, 300));
      process.exit(1);
    }' "$WORK/body" "$1"
}

# expect_assets PREFIX TYPES MIN: every file the last body (a page) names under PREFIX answers 200 without a key,
# with a content type matching the regex TYPES and a body; at least MIN of them. Sets ASSETS to their paths.
expect_assets() {
  local prefix="$1" types="$2" min="$3" asset got
  ASSETS="$(grep -o "$prefix[^\"]*" "$WORK/body")" || { echo "the page names nothing under $prefix" >&2; return 1; }
  [[ "$(wc -l <<<"$ASSETS")" -ge "$min" ]] || { echo "the page names too few files under $prefix: $ASSETS" >&2; return 1; }
  for asset in $ASSETS; do
    got="$(curl -sS --max-time "$HTTP_TIMEOUT_S" -o "$WORK/body" -w '%{http_code} %{content_type}' "http://127.0.0.1:$PORT$asset")"
    [[ "$got" =~ ^200\ ($types) ]] || { echo "GET $asset: $got" >&2; return 1; }
    [[ -s "$WORK/body" ]] || { echo "GET $asset: empty body" >&2; return 1; }
  done
}

# ---- checks ----

check_version() {
  local out
  out="$(cd "$WORK" && env -i PATH="$WORK/empty-path" HOME="$WORK" TMPDIR="$WORK/tmp" ./mds --version 2>&1)" || {
    echo "--version failed:" >&2
    tail -n 12 <<<"$out" >&2
    return 1
  }
  [[ "$out" == 'mds 1.0.0 ('*')' ]] || { echo "--version printed '$out'" >&2; return 1; }
  # 'dev' means the build did not stamp a commit.
  [[ "$out" != *'(dev)' ]] || { echo "--version printed '$out': no commit stamped" >&2; return 1; }
}

check_addons_embedded() {
  # The native addons must come out of the binary (Bun writes them under TMPDIR), never from a node_modules.
  local maps="/proc/$SERVER_PID/maps"
  [[ -r "$maps" ]] || return 0 # not Linux: nothing to inspect
  if grep -q 'node_modules' "$maps"; then
    echo "mds maps files from a node_modules:" >&2
    grep 'node_modules' "$maps" | awk '{print $6}' | sort -u >&2
    return 1
  fi
  local addons
  addons="$(grep -c "$WORK/tmp/.*\.node" "$maps" || true)"
  ((addons > 0)) || { echo "no embedded .node addon is loaded" >&2; return 1; }
}

check_health() {
  expect_get 200 /health
  expect_json 'j.status === "ok" && j.version === "1.0.0" && j.symbols > 0'
}

check_docs() {
  # The docs page and every asset it names come out of the binary, without a key.
  expect_get 200 /docs
  expect_assets /docs/assets/ 'text/javascript|text/css|image/png' 4
}

check_console() {
  # The console page and every file it names come out of the binary (built into it; no sources here), without a key.
  expect_get 200 /console
  grep -q '<div id="app"></div>' "$WORK/body" || { echo "/console has no app element: $(head -c 300 "$WORK/body")" >&2; return 1; }
  expect_assets /console/assets/ 'text/javascript|text/css|image/' 1
  # The script is the bundle, lightweight-charts inside.
  local script
  script="$(grep '\.js$' <<<"$ASSETS")" || { echo "/console names no script: $ASSETS" >&2; return 1; }
  http_get "$script" >/dev/null
  grep -q 'tv-lightweight-charts' "$WORK/body" || { echo "GET $script: no lightweight-charts code in it" >&2; return 1; }
}

check_key_required() {
  expect_get 401 /crypto/quote/BTCUSD
  expect_get 401 /crypto/quote/BTCUSD 'not-the-key-000'
}

check_quote() {
  expect_get 200 /crypto/quote/BTCUSD "$DEV_KEY"
  expect_json 'j.symbol === "BTCUSD" && j.bid > 0 && j.ask >= j.bid && Number.isInteger(j.timestamp)'
}

check_minute_bars() {
  local from to
  from="$(node -e 'console.log(new Date(Date.now() - 86400000).toISOString().slice(0, 10))')"
  to="$(node -e 'console.log(new Date().toISOString().slice(0, 10))')"
  expect_get 200 "/crypto/agg/BTCUSD/1/minute/$from/$to" "$DEV_KEY"
  expect_json 'j.symbol === "BTCUSD" && j.results_count > 0 && j.results.length === j.results_count
    && j.results.every((b) => b.l <= Math.min(b.o, b.c) && Math.max(b.o, b.c) <= b.h && b.t % 60000 === 0)'
}

check_websocket() {
  # A real WebSocket client (Node's, behind its flag on Node 20): ready, subscribe ack, one quote.
  node --experimental-websocket -e '
    const ws = new WebSocket(process.argv[1]);
    const seen = [];
    const done = (ok, why) => { if (!ok) console.error(why + "; frames: " + JSON.stringify(seen).slice(0, 400)); process.exit(ok ? 0 : 1); };
    setTimeout(() => done(false, "no quote within 10 s"), 10000);
    ws.onerror = () => done(false, "connection failed");
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      seen.push(m.type);
      if (m.type === "ready") ws.send(JSON.stringify({ action: "subscribe", channels: ["crypto.quotes"], symbols: ["BTCUSD"] }));
      if (m.type === "error") done(false, "error frame " + e.data);
      if (m.type === "quote") done(m.symbol === "BTCUSD" && m.bid > 0 && m.ts === m.timestamp && seen.includes("subscribed"), "bad quote " + e.data);
    };' "ws://127.0.0.1:$PORT/?apiKey=$DEV_KEY" 2>&1
}

check_mcp() {
  # MCP's SDK is loaded on the first request (not at start): it must be inside the binary too.
  local got
  got="$(curl -sS --max-time "$HTTP_TIMEOUT_S" -o "$WORK/body" -w '%{http_code}' -X POST \
    -H "x-api-key: $DEV_KEY" -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' \
    --data '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}' \
    "http://127.0.0.1:$PORT/mcp")"
  [[ "$got" == 200 ]] || { echo "POST /mcp: status $got; body: $(head -c 300 "$WORK/body")" >&2; return 1; }
  expect_json 'j.result && j.result.serverInfo && j.result.serverInfo.name === "mds"'
}

check_metrics() {
  # prom-client is loaded only when metrics are served (here with --metrics-token): inside the binary too.
  local got
  got="$(curl -sS --max-time "$HTTP_TIMEOUT_S" -o "$WORK/body" -w '%{http_code}' -H "authorization: Bearer $METRICS_TOKEN" "http://127.0.0.1:$PORT/metrics")"
  [[ "$got" == 200 ]] || { echo "GET /metrics: status $got; body: $(head -c 300 "$WORK/body")" >&2; return 1; }
  grep -q '^mds_http_requests_total' "$WORK/body" || { echo "/metrics has no mds_http_requests_total: $(head -c 300 "$WORK/body")" >&2; return 1; }
}

check_workers() {
  # --workers 2: the binary starts nats-server, an ingest process and an edge, all copies of itself.
  local nats log port deadline pid code=0
  nats="$(command -v nats-server)" || { echo "nats-server is needed for --workers (Debian: apt-get install nats-server)" >&2; return 1; }
  log="$WORK/workers.log"
  port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
  (cd "$WORK" && exec env -i PATH="$WORK/empty-path" HOME="$WORK" TMPDIR="$WORK/tmp" MDS_NATS_SERVER="$nats" \
    ./mds serve --workers 2 --port "$port" --host 127.0.0.1 --data-dir "$WORK/workers-data" \
    --history-days 1 --history-years 0 --dev-key "$DEV_KEY" >"$log" 2>&1) &
  pid=$!
  deadline=$((SECONDS + START_TIMEOUT_S))
  until grep -q '^\[edge-1\] .*serving REST on' "$log"; do
    kill -0 "$pid" 2>/dev/null || { echo "--workers 2 exited before its edge served: $(tail -n 5 "$log")" >&2; return 1; }
    ((SECONDS < deadline)) || { kill -KILL "$pid"; echo "--workers 2: no edge served within ${START_TIMEOUT_S}s" >&2; return 1; }
    sleep 0.2
  done
  PORT="$port" expect_get 200 /crypto/quote/BTCUSD "$DEV_KEY"
  expect_json "j.symbol === 'BTCUSD'"
  kill -TERM "$pid"
  wait "$pid" || code=$?
  [[ "$code" == 0 ]] || { echo "--workers 2 exited with code $code after SIGTERM" >&2; return 1; }
  [[ "$(grep -c 'stopped; everything written is on disk' "$log")" == 2 ]] || { echo "--workers 2: not every process logged its clean stop" >&2; return 1; }
}

check_resumed() {
  grep -q 'resuming' "$LOG" || { echo "second start did not log 'resuming'" >&2; return 1; }
}

# run_check NAME: runs check_NAME in a subshell with errexit on, records the result.
run_check() {
  local status=0
  set +e
  (set -e; "check_$1")
  status=$?
  set -e
  if [[ "$status" == 0 ]]; then
    PASSED=$((PASSED + 1))
    say "ok   $1"
  else
    FAILED+=("$1")
    say "FAIL $1"
  fi
}

main() {
  local build=1 binary="$ROOT/dist/mds"
  case "$#:${1:-}" in
    0:) ;;
    1:--no-build) build=0 ;;
    2:--binary) build=0 binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")" ;;
    *) say "usage: $0 [--no-build | --binary PATH]"; exit 2 ;;
  esac
  command -v curl >/dev/null || die "curl is needed"
  command -v node >/dev/null || die "node is needed (for the JSON checks)"
  local started=$SECONDS

  if ((build)); then
    (cd "$ROOT" && "$ROOT/node_modules/.bin/bun" scripts/build.ts) || die "build failed"
  fi
  [[ -x "$binary" ]] || die "no executable $binary; run 'npm run build'"

  WORK="$(mktemp -d "${TMPDIR:-/tmp}/mds-smoke.XXXXXX")"
  mkdir -p "$WORK/empty-path" "$WORK/tmp"
  cp "$binary" "$WORK/mds"
  say "running a copy of $binary in $WORK"

  run_check version

  start_server first
  run_check addons_embedded
  run_check health
  run_check docs
  run_check console
  run_check key_required
  run_check quote
  run_check minute_bars
  run_check websocket
  run_check mcp
  run_check metrics
  stop_server

  start_server second
  run_check resumed
  run_check health
  stop_server

  run_check workers

  local seconds=$((SECONDS - started))
  if ((${#FAILED[@]} == 0)); then
    say "PASS ($PASSED checks, ${seconds}s)"
  else
    say "FAIL (${#FAILED[@]} of $((PASSED + ${#FAILED[@]})) checks failed: ${FAILED[*]}; ${seconds}s)"
    exit 1
  fi
}

main "$@"
