import { Logger } from 'graphile-worker';

/** Where a worker and a queue report: warnings and errors always, info and debug when given. */
export interface WorkerLogger {
  error(message: string): void;
  warn(message: string): void;
  info?(message: string): void;
  debug?(message: string): void;
}

/** A library says nothing on success: warnings and errors go to the console, the rest nowhere. */
export const consoleLogger: WorkerLogger = {
  error: (message) => console.error(message),
  warn: (message) => console.warn(message),
};

/**
 * A failure graphile should record without reporting it as one: the task throws it so graphile's
 * failJob runs, whose `locked_by` check makes it a no-op for a job this pool no longer holds.
 */
export class LeftAloneSignal extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'LeftAloneSignal';
  }
}

/** graphile's logger writing to ours, with a task's deliberate LeftAloneSignal downgraded to debug. */
export function graphileLogger(logger: WorkerLogger): Logger {
  return new Logger((scope) => (level, message, meta) => {
    const text = scope.label ? `[graphile-worker ${scope.label}] ${message}` : `[graphile-worker] ${message}`;
    const deliberate = (meta as { error?: unknown } | undefined)?.error instanceof LeftAloneSignal;
    if (level === 'error' && !deliberate) logger.error(text);
    else if (level === 'warning') logger.warn(text);
    else if (level === 'info') logger.info?.(text);
    else logger.debug?.(text);
  });
}
