// Large offline trees for the speed benchmarks (issue 19): the bench corpora (zod, TypeScript's lib
// .d.ts files, date-fns, lodash-es, ramda; about 231k lines) copied under `copy-<n>/` until the tree
// holds at least `targetLines` lines. Real code with real folder shapes, built in seconds, no network.
import { cpSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildCorpus, dateFnsFullSource, lodashSource, ramdaSource, typescriptLibDir, zodSource } from './corpus.mjs';

const typescriptLibSource = () => ({ from: typescriptLibDir(), to: 'typescript-lib', keep: (path) => path.endsWith('.d.ts') && statSync(path).size < 1024 * 1024 });

/** `{ base, root, home, files, lines, bytes, copies, dispose() }`; the caller disposes it. */
export function buildLargeTree(targetLines) {
  const sources = [zodSource(), typescriptLibSource(), dateFnsFullSource(), lodashSource(), ramdaSource()].map((source) => ({ ...source, to: `copy-0/${source.to}` }));
  const corpus = buildCorpus({ sources });
  const copies = Math.max(1, Math.ceil(targetLines / corpus.lines));
  for (let copy = 1; copies > copy; copy++) cpSync(join(corpus.root, 'copy-0'), join(corpus.root, `copy-${copy}`), { recursive: true });
  return {
    ...corpus,
    files: corpus.files * copies,
    lines: corpus.lines * copies,
    bytes: corpus.bytes * copies,
    copies,
    dispose: () => rmSync(corpus.base, { recursive: true, force: true }),
  };
}
