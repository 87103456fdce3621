import { afterAll, beforeAll } from 'vitest';
import { type BuiltCli, buildCli } from './build-cli.js';

/** Bundles the CLI once for a test file and removes the bundle after it; call the result in tests. */
export function useBuiltCli(name: string): () => BuiltCli {
  let cli: BuiltCli | undefined;
  beforeAll(async () => {
    cli = await buildCli(name);
  }, 120_000);
  afterAll(() => cli?.dispose());
  return () => {
    if (!cli) throw new Error('the CLI bundle is not built yet (useBuiltCli runs in beforeAll)');
    return cli;
  };
}
