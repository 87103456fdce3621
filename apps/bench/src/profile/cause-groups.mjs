// Per-step profile time by cause. A sample goes to the function that was running, or, when that
// is Node itself (HTTP, streams, timers, microtask queues), to the nearest caller that is not;
// inside Cairn's own code, to the nearest enclosing function with a named cause (so JSON work done
// for a checkpoint counts as the checkpoint, SQLite calls made for it as SQLite). The causes are
// the hot-path items of issue 13.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const causes = [
  { cause: 'SQLite (driver and store calls)', match: ({ url, name }) => url.includes('better-sqlite3') || name === 'withBusyRetry' },
  { cause: 'run machine (xstate)', match: ({ url }) => url.includes('/xstate/') },
  { cause: 'openai SDK (request, SSE parsing)', match: ({ url }) => /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?openai\//.test(url) },
  { cause: 'history and tools converted for the provider', match: ({ name }) => /^(convertToOpenAIChatMessages|buildOpenAIChatRequest|toolCallArguments|toolInputJsonSchema|toolSpecs|offeredTools)$/.test(name) },
  { cause: 'checkpoint saves (serialise, hash)', match: ({ name }) => /^(save|extendsSaved|encodeBlob|hashBlob|storeBlob|writeBlobs|putJson|hashJson|remember)$/.test(name) },
  { cause: 'retry watchdog (timers, races)', match: ({ name }) => /^(nextOrAbort|armWatchdog|touch|arm|IdleWatchdog|AbortableIterator)$/.test(name) },
  { cause: 'garbage collection', match: ({ name, url }) => !url && name === '(garbage collector)' },
];
const nodeItself = 'Node itself (no caller outside Node)';
const cairnElse = 'Cairn runtime (everything else)';
const otherPackage = 'other packages';

/** Node internals and natives: transparent, the caller decides. */
const isNode = ({ url, name }) => url.startsWith('node:') || (!url && name !== '(garbage collector)');
const isCairn = ({ url }) => url !== '' && !url.startsWith('node:') && !url.includes('/node_modules/');

/** { cause: ms } of one .cpuprofile, idle and (program) left out. */
export function causeTimes(path) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const parent = new Map();
  const nodes = new Map();
  for (const node of profile.nodes) {
    nodes.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const frameOf = (id) => {
    const { url, functionName, lineNumber } = nodes.get(id).callFrame;
    return { url: bundledDependency(url, lineNumber) ?? url, name: functionName };
  };
  const causeOf = new Map();
  const classify = (leaf) => {
    let id = leaf;
    while (id !== undefined && isNode(frameOf(id)) && !causes.some((entry) => entry.match(frameOf(id)))) id = parent.get(id);
    if (id === undefined) return nodeItself;
    const direct = causes.find((entry) => entry.match(frameOf(id)));
    if (direct) return direct.cause;
    if (!isCairn(frameOf(id))) return otherPackage;
    // Cairn code: the nearest enclosing Cairn function with a named cause, else "everything else".
    for (let up = parent.get(id); up !== undefined && !isNode(frameOf(up)); up = parent.get(up)) {
      if (!isCairn(frameOf(up))) break;
      const named = causes.find((entry) => entry.match(frameOf(up)));
      if (named) return named.cause;
    }
    return cairnElse;
  };
  const cached = (id) => {
    if (!causeOf.has(id)) causeOf.set(id, classify(id));
    return causeOf.get(id);
  };
  const times = new Map();
  for (let index = 0; index < profile.samples.length; index++) {
    const id = profile.samples[index];
    const name = nodes.get(id).callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || name === '(root)') continue;
    const cause = cached(id);
    times.set(cause, (times.get(cause) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
  }
  return times;
}

const regionsByFile = new Map();

/**
 * The dependency a line of a built chunk came from, when the package bundles it (core bundles
 * xstate, provider-openai the openai SDK): esbuild starts each module's code with a `// <path>`
 * comment, so the path of the region holding the line names the package (`.../node_modules/xstate/...`).
 * Undefined for a file that is not a built chunk, or a line of the package's own sources.
 */
function bundledDependency(url, line) {
  if (!url.includes('/dist/') || url.includes('/node_modules/')) return undefined;
  if (!regionsByFile.has(url)) {
    let lines = [];
    try {
      lines = readFileSync(url.startsWith('file:') ? fileURLToPath(url) : url, 'utf8').split('\n');
    } catch {
      // Not readable any more: its lines count as the package's own.
    }
    const regions = [];
    lines.forEach((text, index) => {
      if (/^\/\/ \S+\.[cm]?[jt]sx?$/.test(text)) regions.push({ start: index, path: text.slice(3) });
    });
    regionsByFile.set(url, regions);
  }
  let path;
  for (const region of regionsByFile.get(url)) {
    if (region.start > line) break;
    path = region.path;
  }
  return path?.includes('node_modules/') ? `/${path}` : undefined;
}
