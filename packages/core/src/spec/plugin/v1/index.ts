export type { CairnPlugin, PluginReplacements, StoreFactory, StoreFactoryContext, WorkspaceFileChange } from './plugin.js';
export type { EditFeedbackProvider, EditFeedbackRequest, EditFeedbackSession, EditFeedbackWorkspace } from './edit-feedback.js';
