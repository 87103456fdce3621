#!/usr/bin/env bash
# Set up a fresh machine for Cairn: pnpm, the native build of better-sqlite3, bubblewrap for the
# sandbox (Linux, when run as root or with sudo), dependencies, and a build of every package.
set -euo pipefail
cd "$(dirname "$0")/.."

want_pnpm=12.4.2
if [ "$(pnpm --version 2>/dev/null || true)" != "$want_pnpm" ]; then
  npm install -g -E "pnpm@$want_pnpm"
fi

if [ "$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq bubblewrap;
  elif command -v sudo >/dev/null 2>&1; then sudo apt-get update -qq && sudo apt-get install -y -qq bubblewrap;
  else echo "note: install bubblewrap for the shell sandbox (apt-get install bubblewrap)" >&2; fi
fi

# better-sqlite3 compiles against Node's headers; pnpm ignores nodedir in .npmrc, so set it here.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi

pnpm install --frozen-lockfile
pnpm build
