export type { CairnPlugin, WorkspaceFileChange } from './plugin.js';
