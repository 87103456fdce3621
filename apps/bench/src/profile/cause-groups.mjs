// Per-step profile time by cause. A sample goes to the function that was running, or, when that
// is Node itself (HTTP, streams, timers, microtask queues), to the nearest caller that is not;
// inside Cairn's own code, to the nearest enclosing function with a named cause (so JSON work done
// for a checkpoint counts as the checkpoint, SQLite calls made for it as SQLite). The causes are
// the hot-path items of issue 13.
import { readFileSync } from 'node:fs';

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
  const frameOf = (id) => ({ url: nodes.get(id).callFrame.url, name: nodes.get(id).callFrame.functionName });
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
