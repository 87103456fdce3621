import { defineConfig } from 'vitest/config';

// Tests run against the sources of the other @cairn packages (the `cairn-source` export condition),
// so a change in core is seen by every package's tests without a build. No `import` here: vitest
// hands Node these as --conditions, which apply to require() too, and then pg's require('pg-pool')
// would load pg-pool's ES module build (`class extends Pool` fails); Node and Vite add `import` to
// ES imports by themselves.
const conditions = ['cairn-source', 'module', 'node', 'default'];

export const sharedConfig = defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: process.env.CAIRN_TEST_REPORT ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
  },
});
