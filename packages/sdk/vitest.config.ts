import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The SDK also has type-level tests (`*.test-d.ts`): the reference SDK's documented types checked
// against Cairn's exports. Vitest runs them through tsc and reports each as a test.
export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  }),
);
