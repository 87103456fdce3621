import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts","node-http":"src/node-http-fetch.ts","testing":"src/testing.ts"},
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
