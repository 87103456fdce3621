import type { CairnPlugin } from '@cairn/core';

export interface PrefixShare {
  request: number;
  chars: number;
  charShare: number;
  tokenShare: number;
  wireCharShare: number;
  previousReused: number;
}

export type ScenarioName = 'agent' | 'readOnly' | 'planThenAgent';

export function prefixShares(bodies: unknown[]): PrefixShare[];
export function runCacheScenario(
  name: ScenarioName,
  modesPlugin: CairnPlugin,
  options?: { mode?: string; stableToolList?: boolean },
): Promise<{ bodies: Array<Record<string, unknown>>; shares: PrefixShare[] }>;
