import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts"},
  format: ['esm'],
  // Each tool's execute code is a dynamic import(): its own chunk, loaded at the first call.
  splitting: true,
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
