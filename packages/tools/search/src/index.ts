export { codebaseSearchTool, type CodebaseSearchInput, type CodebaseSearchToolOptions, createCodebaseSearchTool, notifyFilesChanged } from './codebase-search-tool.js';
export { fileTypeGlobs } from './file-types.js';
export { type GrepInput, grepInputJsonSchema, planGrep } from './grep-input.js';
export { ripgrepArguments } from './ripgrep-arguments.js';
export { grepDefaults, grepTool, runGrep } from './grep-tool.js';
export { locateRipgrep } from './ripgrep-binary.js';
export { searchTools, searchToolsPlugin } from './plugin.js';
