import type { InteractionUpdate, RunEvent } from '../spec/events/v1/index.js';
import type { RunEventLog } from './run-event-log.js';

type MessageOf = (body: Record<string, unknown>) => RunEvent;
type OnDelta = (event: { update: InteractionUpdate }) => void | Promise<void>;

/** One thing a run could not use and went on without; `server` for MCP. */
export interface RunWarning {
  message: string;
  server?: string;
}

/**
 * The warnings of one run from one source: MCP servers that failed to start or were left out,
 * hooks that failed, timed out or had a message for the user. Those said before the run's opening
 * events are written wait for them, so they follow the init message; a later one is written at
 * once, and one said after the run ended is dropped (the next run says it again). Each is a
 * `warning` update, stored like every update, and a status message with the same text for readers
 * of `run.stream()`.
 */
export class RunWarnings {
  private waiting: RunWarning[] = [];
  private late: ((warning: RunWarning) => void) | undefined;
  private mode = '';
  private ended = false;

  readonly warn = (warning: RunWarning): void => {
    if (this.ended) return;
    if (this.late) this.late(warning);
    else this.waiting.push(warning);
  };

  constructor(
    private readonly message: MessageOf,
    private readonly source: 'mcp' | 'hook',
  ) {}

  /** The same as `warn`, for a source that says only a text. */
  readonly warnText = (message: string): void => this.warn({ message });

  /**
   * The events of the warnings said so far, for the caller to write with the run's opening events
   * (in the run's starting mode); later ones are written to `log` and handed to `onDelta` as they come.
   */
  open(mode: string, log: RunEventLog, onDelta?: OnDelta): RunEvent[] {
    this.mode = mode;
    let written = Promise.resolve();
    this.late = (warning) => {
      const events = this.events([warning]);
      // One after the other, like every update; a failed write is the log's to report at the run's next write.
      written = written.then(async () => {
        await log.append(events);
        for (const event of events) if (event.kind === 'update') await onDelta?.({ update: event.update });
      }).catch(() => undefined);
    };
    const events = this.events(this.waiting);
    this.waiting = [];
    return events;
  }

  /** Open a run whose opening events are written already (a continued run): every warning is written as it comes. */
  opened(mode: string, log: RunEventLog): RunWarnings['warn'] {
    const waiting = this.waiting;
    this.waiting = [];
    this.open(mode, log, undefined);
    for (const warning of waiting) this.warn(warning);
    return this.warn;
  }

  /** The run ended: later warnings belong to no run. */
  end(): void {
    this.ended = true;
  }

  private events(warnings: RunWarning[]): RunEvent[] {
    return warnings.flatMap((warning) => [
      { kind: 'update' as const, update: { type: 'warning' as const, source: this.source, message: warning.message, ...(warning.server ? { server: warning.server } : {}) } },
      this.message({ type: 'status', status: 'RUNNING', mode: this.mode, message: warning.message }),
    ]);
  }
}
