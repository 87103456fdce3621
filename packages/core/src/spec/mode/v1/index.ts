export type { ModeDefinition, ModeReminderContext, ModeTransition, ToolPolicy } from './mode.js';
