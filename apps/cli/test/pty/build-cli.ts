import { join, resolve } from 'node:path';
import { bundleSources } from '../../../../scripts/testing/bundle-sources.js';

const cliRoot = resolve(import.meta.dirname, '../..');

export interface BuiltCli {
  /** The bundled `bin.js`: run it with `node`. */
  bin: string;
  dispose(): void;
}

/** Bundle `src/bin.ts` from the current sources (the `cairn-source` condition) for a test process. */
export async function buildCli(name: string): Promise<BuiltCli> {
  const bundle = await bundleSources(join(cliRoot, 'src/bin.ts'), join(cliRoot, 'node_modules', '.cache', `cairn-pty-${name}-${process.pid}`), 'bin');
  return { bin: bundle.file, dispose: bundle.dispose };
}
