/** The operations of a Run that `run.supports(operation)` answers for. */
export type RunOperation = 'stream' | 'wait' | 'cancel' | 'conversation';
