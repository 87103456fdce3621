import { sharedConfig } from '../../../vitest.shared.ts';

// vitest hands Node the ssr conditions as --conditions, and Node applies custom conditions to
// require() too: with `import` among them, pg's require('pg-pool') loads pg-pool's ES module build
// (its exports map `import` first) and `class extends Pool` fails. Node and Vite add `import` to
// ES imports by themselves, so leaving it out here changes nothing else.
const conditions = ['cairn-source', 'module', 'node', 'default'];

export default {
  ...sharedConfig,
  ssr: { ...sharedConfig.ssr, resolve: { conditions, externalConditions: conditions } },
};
