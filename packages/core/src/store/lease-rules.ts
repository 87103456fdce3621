import type { AgentLease } from '../spec/store/v1/store.js';

/**
 * Whether `wanted` may take a lease currently `held`: when it is free, expired at `now`
 * (`expiresAt <= now`), already held by the same run from the same process (re-acquiring is
 * idempotent), or forced. The same run from another process is another holder: a worker that
 * resumes a run a stopped one left waits for the old lease to expire.
 */
export function canTakeLease(held: AgentLease | null, wanted: Pick<AgentLease, 'runId' | 'owner'>, now: number, force: boolean): boolean {
  return force || held === null || held.expiresAt <= now || (held.runId === wanted.runId && held.owner === wanted.owner);
}
