// Preloaded (`node --import`) into one untimed run of each CLI subject: at exit, the packages whose
// modules the process loaded, with how many, go to file descriptor 3. It shows what a command loads
// (`cairn --help` must load neither the SDK nor SQLite, providers, the index or tree-sitter).
import { writeSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => loaded.add(url));
port1.unref();
const hook = 'let port; export function initialize(data) { port = data.port; } export async function load(url, context, next) { port.postMessage(url); return next(url, context); }';
register(`data:text/javascript,${encodeURIComponent(hook)}`, { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

/** `@cairn/core` for a workspace package's file, the npm name for a dependency, `cairn` for the CLI. */
function packageOf(url) {
  const dependency = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (dependency) return dependency[1];
  const workspace = /\/packages\/((?:stores|tools|providers)\/)?([^/]+)\/dist\//.exec(url);
  const prefixes = { 'stores/': 'store-', 'tools/': 'tools-', 'providers/': 'provider-' };
  if (workspace) return `@cairn/${prefixes[workspace[1]] ?? ''}${workspace[2]}`;
  return url.includes('/apps/cli/') ? 'cairn' : undefined;
}

process.on('exit', () => {
  const counts = {};
  // CommonJS modules (commander, better-sqlite3) do not pass the ESM hook: they are in require's cache.
  for (const file of Object.keys(createRequire(import.meta.url).cache)) loaded.add(pathToFileURL(file).href);
  for (const url of loaded) {
    const name = url.startsWith('file:') ? packageOf(url) : undefined;
    if (name) counts[name] = (counts[name] ?? 0) + 1;
  }
  try {
    writeSync(3, JSON.stringify(counts));
  } catch {
    // not started by the benchmark
  }
});
