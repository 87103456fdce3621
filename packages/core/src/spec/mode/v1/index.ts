export type { ModeDefinition, ModeEntry, ModeReminderContext, ModeTransition, ToolPolicy } from './mode.js';
