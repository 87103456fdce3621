import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The SDK also has type-level tests (`*.test-d.ts`): the reference SDK's documented types checked
// against Cairn's exports. Vitest runs them through tsc and reports each as a test.
// After the last test file, the suite fails if an MCP server process its tests started is still running.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
      globalSetup: ['../tools/mcp/test/suite-orphan-check.ts'],
    },
  }),
);
