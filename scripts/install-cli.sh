#!/usr/bin/env bash
# Install the `cairn` command from this checkout, the way a user of the published package would get
# it: set up and build the checkout, pack every package with `pnpm pack`, install the tarballs with
# npm into a folder of their own, and link its `bin/cairn` into a folder on PATH. Run it again to
# update; it replaces the previous install. See docs/install.md.
#
# Where (override with the environment):
#   CAIRN_INSTALL_DIR  the npm project holding the install
#                      (root: /usr/local/lib/cairn, else ${XDG_DATA_HOME:-~/.local/share}/cairn)
#   CAIRN_BIN_DIR      where the `cairn` link goes (root: /usr/local/bin, else ~/.local/bin)
#   CAIRN_SKIP_SETUP=1 skip scripts/setup.sh (the checkout is already installed and built)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"

if [ "$(id -u)" = 0 ]; then
  install_dir="${CAIRN_INSTALL_DIR:-/usr/local/lib/cairn}"
  bin_dir="${CAIRN_BIN_DIR:-/usr/local/bin}"
else
  install_dir="${CAIRN_INSTALL_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/cairn}"
  bin_dir="${CAIRN_BIN_DIR:-$HOME/.local/bin}"
fi

if [ "${CAIRN_SKIP_SETUP:-}" != 1 ]; then bash "$repo/scripts/setup.sh"; fi

# better-sqlite3 compiles against Node's headers when no prebuilt binary can be downloaded.
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then export npm_config_nodedir=/usr; fi

echo "cairn: packing the packages into $install_dir/tarballs" >&2
mkdir -p "$install_dir"
node "$repo/scripts/pack-packages.mjs" "$install_dir/tarballs" "$install_dir" >/dev/null

# A tarball keeps its version while its content changes: drop the previous copies and the lockfile
# so npm unpacks the new ones (third-party dependencies stay, so a rerun takes seconds).
rm -rf "$install_dir/node_modules/cairn" "$install_dir/node_modules/@cairn" "$install_dir/package-lock.json"
echo "cairn: installing with npm into $install_dir" >&2
(cd "$install_dir" && npm install --omit=dev --no-audit --no-fund --no-update-notifier --loglevel=error >/dev/null)

mkdir -p "$bin_dir"
ln -sfn "$install_dir/node_modules/cairn/dist/bin.js" "$bin_dir/cairn"
chmod +x "$install_dir/node_modules/cairn/dist/bin.js"
version="$("$bin_dir/cairn" --version)"
echo "cairn: $version installed as $bin_dir/cairn" >&2

case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "cairn: $bin_dir is not on PATH; add it, e.g. echo 'export PATH=\"$bin_dir:\$PATH\"' >> ~/.bashrc" >&2 ;;
esac
