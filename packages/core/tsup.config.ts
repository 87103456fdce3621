import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts","testing":"src/testing.ts","testing-stores":"src/testing-stores.ts","node":"src/node.ts","spec":"src/spec.ts","errors":"src/errors.ts","workspace-files":"src/workspace-files.ts","index-settings":"src/index-settings.ts"},
  format: ['esm'],
  // Bundled into core's own chunks: Node 20's ES module loader costs about 1 ms of CPU per module
  // file, and these load at every start (xstate 8 files, @cfworker/json-schema 9), so
  // bundling them cuts about 15 ms from importing @cairn/core (docs/benchmarks.md, "Start-up").
  // xstate stays a dependency because core's type declarations refer to its types.
  noExternal: ['xstate', '@cfworker/json-schema'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
