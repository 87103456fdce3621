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
cleanup() {
  for pid in $server_pid $serve_pid; do kill "$pid" 2>/dev/null || true; done
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
echo "ci-smoke: ok" >&2
