import { defineConfig } from 'vitest/config';

// No `cairn-source` condition here: this package tests what npm users get, the packed dist.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One npm install (with the better-sqlite3 compile when no prebuilt binary can be fetched) for the file.
    hookTimeout: 600_000,
    testTimeout: 120_000,
    reporters: process.env.CAIRN_TEST_REPORT ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'],
  },
});
