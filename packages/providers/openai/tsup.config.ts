import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts"},
  format: ['esm'],
  // The `openai` SDK is bundled into one chunk of its own, imported when a model is resolved (never
  // at import): as a package it is about 154 module files, and Node 20's ES module loader pays per
  // file, so loading it took about 84 ms of CPU against 13 ms for the same code as one file
  // (docs/benchmarks.md, "Start-up"). It stays a dependency: the type declarations refer to its
  // types, and a client passed in `settings.client` is the caller's own. Apache-2.0, like this
  // package; its license ships with the dependency.
  noExternal: ['openai'],
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
