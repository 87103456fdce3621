type NodeModule = { createRequire(from: string): (id: string) => unknown };

/**
 * Load a CommonJS dependency the first time it is needed, synchronously. Importing ajv, ignore,
 * picomatch or a tokenizer up front costs tens of milliseconds and megabytes at start-up that most
 * runs never need; `getBuiltinModule` keeps node:module out of the module graph for other runtimes.
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded === undefined) {
      const nodeModule = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process?.getBuiltinModule?.('node:module') as NodeModule | undefined;
      if (!nodeModule) throw new Error(`${id} can only be loaded on Node.js (process.getBuiltinModule is missing).`);
      const required = nodeModule.createRequire(import.meta.url)(id) as T & { default?: T };
      loaded = (required.default ?? required) as T;
    }
    return loaded;
  };
}
