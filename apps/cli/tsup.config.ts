import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts","bin":"src/bin.ts"},
  format: ['esm'],
  // commander is bundled into the CLI's chunk: as a package it was seven CommonJS files loaded at
  // every start, `cairn --help` included (docs/benchmarks.md, "Start-up"). Bundled CommonJS code
  // calls require() for Node's built-ins (events, child_process, ...), which an ES module does not
  // have: the banner gives each output file one, made for its own location.
  noExternal: ['commander'],
  banner: { js: "import { createRequire as __cairnCreateRequire } from 'node:module'; const require = __cairnCreateRequire(import.meta.url);" },
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
