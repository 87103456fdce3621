import type { RunViewState } from './run-view-types.js';

/** A run that finished, failed or was cancelled never runs again. */
export const isTerminal = (status: RunViewState['status']) => status === 'finished' || status === 'error' || status === 'cancelled';
