import { createRegistry } from '@cairn/core';
import { defaultPlugins } from './default-plugins.js';

/** The default registry: every provider, tool pack and mode of Cairn. Add your own with `registry.use(...)`. */
export const registry = createRegistry(defaultPlugins);
