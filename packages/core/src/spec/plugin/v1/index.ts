export type { CairnPlugin } from './plugin.js';
