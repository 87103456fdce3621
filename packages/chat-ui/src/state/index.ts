export type { DiffLine, EditDiff } from './edit-diff.js';
export { editDiffOf } from './edit-diff.js';
export type { PlanView } from './plan-view.js';
export { initialRunView, runViewReducer } from './run-view-reducer.js';
export type * from './run-view-types.js';
export { type ConversationAction, type ConversationState, conversationReducer, emptyConversation, latestRun, pendingApprovals, runsOf } from './conversation.js';
