export { type EditNotebookInput, editNotebookInputSchema, editNotebookTool } from './edit-notebook-tool.js';
export { applyNotebookEdit, type NotebookEdit, type NotebookEditMode } from './notebook-edit.js';
export {
  type CellType, detectFormatting, emptyNotebook, type Notebook, type NotebookCell, type NotebookFormatting, parseNotebook,
  serializeNotebook, sourceToLines, sourceToText,
} from './notebook-format.js';
export { notebookTools, notebookToolsPlugin } from './plugin.js';
