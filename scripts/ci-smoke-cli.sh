#!/usr/bin/env bash
# Run the installed `cairn` (from PATH) in a fresh folder outside the checkout against the fake
# OpenAI-compatible server: a headless run that writes a file, json output, doctor. Used by .ci/run.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin_dir="${CAIRN_BIN_DIR:-$([ "$(id -u)" = 0 ] && echo /usr/local/bin || echo "$HOME/.local/bin")}"
export PATH="$bin_dir:$PATH"

work="$(mktemp -d)"
server_pid=
serve_pid=
worker_pid=
cleanup() {
  for pid in $server_pid $serve_pid $worker_pid; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

turns='[{"toolCalls":[{"name":"write","args":{"path":"hello.txt","contents":"hello from cairn\n"}}]},{"text":"Wrote hello.txt."},{"text":"Done again."}]'
node "$repo/apps/packaging-test/fake-server.mjs" "$turns" >"$work/server-url" &
server_pid=$!
for _ in $(seq 50); do [ -s "$work/server-url" ] && break; sleep 0.1; done
url="$(head -n1 "$work/server-url")"
[ -n "$url" ] || { echo "ci-smoke: the fake server did not start" >&2; exit 1; }

export CAIRN_HOME="$work/home" OPENAI_API_KEY=sk-dummy OPENAI_BASE_URL="$url" OPENAI_API=chat
mkdir -p "$work/project" && cd "$work/project"
version="$(cairn --version)"
echo "ci-smoke: $(command -v cairn) $version in $PWD" >&2

out="$(cairn --model openai/gpt-4.1-mini "Write hello.txt")"
grep -q 'Wrote hello.txt.' <<<"$out" || { echo "ci-smoke: unexpected output: $out" >&2; exit 1; }
[ "$(cat hello.txt)" = "hello from cairn" ] || { echo "ci-smoke: hello.txt was not written in $PWD" >&2; exit 1; }

json="$(cairn --model openai/gpt-4.1-mini --output-format json "Again")"
node -e 'const r = JSON.parse(process.argv[1]); if (r.type !== "result" || r.is_error) { console.error(r); process.exit(1); }' "$json"

cairn doctor --json >"$work/doctor.json" || true # a missing sandbox or Ollama is not this check's business
node -e 'const d = require(process.argv[1]); const p = d.checks.find((c) => c.name === "provider openai"); if (p?.status !== "ok") { console.error(d.checks); process.exit(1); }' "$work/doctor.json"
# `cairn serve` from the install: the API answers with the token, refuses without, and the chat page is there.
cairn serve --port 0 --token ci-smoke-token-0123456789 >"$work/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 100); do grep -q 'listening on' "$work/serve.log" && break; sleep 0.1; done
base="$(grep -o 'http://[^ ]*' "$work/serve.log" | head -n1)"
[ -n "$base" ] || { echo "ci-smoke: cairn serve did not start: $(cat "$work/serve.log")" >&2; exit 1; }
curl -fsS -H 'authorization: Bearer ci-smoke-token-0123456789' "$base/v1/server" | grep -q "\"defaultCwd\":\"$PWD\"" || { echo "ci-smoke: /v1/server did not name $PWD" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/v1/agents")" = 401 ] || { echo "ci-smoke: /v1/agents answered without the token" >&2; exit 1; }
curl -fsS "$base/" | grep -qi '<html' || { echo "ci-smoke: no chat page at /" >&2; exit 1; }
kill "$serve_pid"
wait "$serve_pid" 2>/dev/null || true

# Background agents from the install, when a PostgreSQL server is given: `cairn worker` and
# `cairn serve --store` on it, one run sent to the server and executed by the worker.
if [ -n "${CAIRN_TEST_POSTGRES_URL:-}" ]; then
  cairn worker --store "$CAIRN_TEST_POSTGRES_URL" >"$work/worker.log" 2>&1 &
  worker_pid=$!
  cairn serve --store "$CAIRN_TEST_POSTGRES_URL" --port 0 --token ci-smoke-token-0123456789 >"$work/serve-pg.log" 2>&1 &
  serve_pid=$!
  for _ in $(seq 200); do grep -q 'taking runs' "$work/worker.log" && grep -q 'listening on' "$work/serve-pg.log" && break; sleep 0.1; done
  grep -q 'taking runs' "$work/worker.log" || { echo "ci-smoke: cairn worker did not start: $(cat "$work/worker.log")" >&2; exit 1; }
  base="$(grep -o 'http://[^ ]*' "$work/serve-pg.log" | head -n1)"
  [ -n "$base" ] || { echo "ci-smoke: cairn serve --store did not start: $(cat "$work/serve-pg.log")" >&2; exit 1; }
  auth='authorization: Bearer ci-smoke-token-0123456789'
  agent="$(curl -fsS -H "$auth" -H 'content-type: application/json' -d "{\"model\":\"openai/gpt-4.1-mini\",\"local\":{\"cwd\":\"$PWD\"}}" "$base/v1/agents" | node -e 'let t="";process.stdin.on("data",(c)=>t+=c).on("end",()=>console.log(JSON.parse(t).agent.agentId))')"
  run="$(curl -fsS -H "$auth" -H 'content-type: application/json' -d '{"text":"Say hello in the background"}' "$base/v1/agents/$agent/runs" | node -e 'let t="";process.stdin.on("data",(c)=>t+=c).on("end",()=>console.log(JSON.parse(t).id))')"
  status=running
  for _ in $(seq 300); do
    status="$(curl -fsS -H "$auth" "$base/v1/runs/$run" | node -e 'let t="";process.stdin.on("data",(c)=>t+=c).on("end",()=>console.log(JSON.parse(t).status))')"
    [ "$status" != running ] && break
    sleep 0.2
  done
  [ "$status" = finished ] || { echo "ci-smoke: the queued run ended $status: $(cat "$work/worker.log")" >&2; exit 1; }
  echo "ci-smoke: a run queued by cairn serve --store was executed by cairn worker" >&2
fi
echo "ci-smoke: ok" >&2
