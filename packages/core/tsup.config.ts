import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts","testing":"src/testing.ts","testing-stores":"src/testing-stores.ts","node":"src/node.ts","spec":"src/spec.ts","errors":"src/errors.ts","workspace-files":"src/workspace-files.ts","index-settings":"src/index-settings.ts"},
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
});
