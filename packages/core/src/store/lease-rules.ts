import type { AgentLease } from '../spec/store/v1/store.js';

/**
 * Whether `runId` may take a lease currently `held`: when it is free, expired at `now`
 * (`expiresAt <= now`), already held by the same run (re-acquiring is idempotent), or forced.
 */
export function canTakeLease(held: AgentLease | null, runId: string, now: number, force: boolean): boolean {
  return force || held === null || held.expiresAt <= now || held.runId === runId;
}
