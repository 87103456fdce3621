export type { CairnPlugin, PluginReplacements, StoreFactory, StoreFactoryContext, WorkspaceFileChange } from './plugin.js';
