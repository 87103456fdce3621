// Node-only helpers (file system paths). Kept out of the root entry so browser bundles never import them.
export { canonicalizePath, canonicalWorkspaceRoot, isInsideRoot, type ResolvedWorkspacePath, resolveWorkspacePath, toPosix } from './node/workspace-path.js';
export { protectedPathReason } from './node/protected-paths.js';
export { defaultIgnoredDirectories, IgnoreRules, ignoreFileNames } from './node/ignore-rules.js';
