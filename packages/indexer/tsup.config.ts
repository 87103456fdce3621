import { defineConfig } from 'tsup';

export default defineConfig({
  // The worker threads' scripts are entries of their own: workers load them by file (see chunk-worker-url.ts).
  entry: { index: 'src/index.ts', 'chunk-worker': 'src/chunk-worker.ts' },
  // Only imported when running from the sources (chunk-worker-url.ts): never bundled.
  external: ['tsup'],
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
