import type { CairnClient } from '../client/cairn-client.js';
import type { ConnectionState } from '../client/run-events.js';
import type { ConversationAction } from '../state/conversation.js';
import type { RunEnd } from '../wire-types.js';

export interface FollowerEvents {
  dispatch: (action: ConversationAction) => void;
  /** The connection of the live runs, summed up (the worst state wins). */
  onConnection: (state: ConnectionState) => void;
  /** A run that was running when followed has ended. */
  onLiveEnd: (runId: string, end: RunEnd) => void;
  onError: (error: unknown) => void;
}

/** Finished runs are replayed a few at a time: browsers allow about six connections per server. */
const replayConcurrency = 2;

/**
 * The event streams of one agent's runs. A live run is followed at once; finished runs are
 * replayed (their log, then `end`) through a small queue so they never starve the live one.
 */
export class RunFollowers {
  private readonly active = new Map<string, AbortController>();
  private readonly states = new Map<string, ConnectionState>();
  private readonly replays: string[] = [];
  private replaying = 0;
  private stopped = false;
  private reported: ConnectionState = 'closed';

  constructor(
    private readonly client: CairnClient,
    private readonly events: FollowerEvents,
  ) {}

  follow(runId: string, live: boolean): void {
    if (this.stopped || this.active.has(runId) || this.replays.includes(runId)) return;
    if (live) return void this.start(runId, true);
    this.replays.push(runId);
    this.nextReplay();
  }

  stopAll(): void {
    this.stopped = true;
    for (const controller of this.active.values()) controller.abort();
    this.active.clear();
    this.replays.length = 0;
  }

  private nextReplay(): void {
    while (this.replaying < replayConcurrency && this.replays.length) {
      const runId = this.replays.shift() as string;
      this.replaying++;
      void this.start(runId, false).finally(() => {
        this.replaying--;
        this.nextReplay();
      });
    }
  }

  private async start(runId: string, live: boolean): Promise<void> {
    const controller = new AbortController();
    this.active.set(runId, controller);
    const { dispatch } = this.events;
    try {
      const end = await this.client.streamRun(runId, {
        signal: controller.signal,
        // A chunk parsed just before a stop must not reach the next agent's view.
        onEvent: (event) => {
          if (!controller.signal.aborted) dispatch({ type: 'run-event', runId, event });
        },
        onConnection: (state) => {
          if (live) this.connectionChanged(runId, state);
        },
      });
      if (end && !controller.signal.aborted) {
        dispatch({ type: 'run-event', runId, event: { kind: 'end', end } });
        if (live) this.events.onLiveEnd(runId, end);
      }
    } catch (error) {
      if (!controller.signal.aborted) this.events.onError(error);
    } finally {
      if (this.active.get(runId) === controller) this.active.delete(runId);
      if (live) this.connectionChanged(runId, 'closed');
    }
  }

  private connectionChanged(runId: string, state: ConnectionState): void {
    if (this.stopped) return;
    if (state === 'closed') this.states.delete(runId);
    else this.states.set(runId, state);
    const all = [...this.states.values()];
    const worst = (['reconnecting', 'connecting', 'open'] as const).find((candidate) => all.includes(candidate)) ?? 'closed';
    if (worst === this.reported) return;
    this.reported = worst;
    this.events.onConnection(worst);
  }
}
