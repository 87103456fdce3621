import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// pg's CommonJS entry requires pg-pool, whose exports offer ESM under `import`: with `import`
// among the SSR conditions, that require gets the ESM namespace and `class extends Pool` fails.
// The workspace sources still resolve through `cairn-source`.
const ssrConditions = ['cairn-source', 'module', 'node', 'default'];

export default defineConfig({
  ...sharedConfig,
  ssr: { ...sharedConfig.ssr, resolve: { ...sharedConfig.ssr?.resolve, conditions: ssrConditions } },
  test: { ...sharedConfig.test, testTimeout: 60_000, hookTimeout: 60_000 },
});
