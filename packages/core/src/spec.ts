// `@cairn/core/spec`: the provider, tool, store, mode, plugin and event contract as types only.
// A provider or plugin imports its contract from here and loads no runtime code at all (the built
// `dist/spec.js` is empty). The error classes are values: they come from `@cairn/core/errors`.
export type * from './spec/index.js';
