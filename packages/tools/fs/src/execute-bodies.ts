// Every fs tool's execute body behind one dynamic import: the tools are used together (read, then
// edit or write), and one chunk keeps the pack's import to two small files instead of a chunk per
// module the bodies share with the index.
export { executeDeleteFile } from './delete-file-execute.js';
export { executeEditFile } from './edit-file-execute.js';
export { executeGlobFileSearch } from './glob-file-search-execute.js';
export { executeListDir } from './list-dir-execute.js';
export { executeReadFile } from './read-file-execute.js';
export { executeSearchReplace } from './search-replace-execute.js';
export { executeWrite } from './write-file-execute.js';
