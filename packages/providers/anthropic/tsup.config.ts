import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts"},
  format: ['esm'],
  // The Anthropic SDK is bundled into one chunk of its own, imported at the first request (never
  // at import): as a package it is a few hundred module files, and Node 20's ES module loader pays
  // per file, so loading it took about 197 ms of CPU against 52 ms for the same code as one file
  // (docs/benchmarks.md, "Start-up"). It stays a dependency: the type declarations refer to its
  // types, and a client passed in `settings.client` is the caller's own.
  noExternal: ['@anthropic-ai/sdk'],
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
