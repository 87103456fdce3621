// `@cairn/core/workspace-files`: the ignore rules and the workspace path helpers, and nothing else of
// the runtime, so that a process that only walks a workspace (`cairn search` keeping its index fresh)
// loads neither the agent, the run machine, xstate nor zod (`@cairn/core/node` costs about 70 ms to
// load). The same classes and functions as `@cairn/core/node`'s (one module each).
export { defaultIgnoredDirectories, IgnoreRules, ignoreFileNames } from './node/ignore-rules.js';
export { isInsideRoot } from './node/inside-root.js';
export { canonicalWorkspaceRoot, toPosix } from './node/workspace-path.js';
