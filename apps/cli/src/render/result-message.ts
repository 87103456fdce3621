import { randomUUID } from 'node:crypto';
import type { RunResult } from '@cairn/sdk';
import { addSnakeUsage, type SnakeUsage, snakeUsage } from './headless-usage.js';
import type { RunTally } from './run-tally.js';
import type { HeadlessLine } from './stream-json.js';

/** One run of an invocation as the result line sums it (`--plan-approve` makes two runs of one result). */
export interface FinishedRun {
  result: RunResult;
  tally: RunTally;
  /** The run's cost in US dollars; 0 when its model has no known prices. */
  costUsd: number;
}

type Subtype = 'success' | 'error_max_turns' | 'error_during_execution';

function subtypeOf(result: RunResult): Subtype {
  if (result.status === 'finished') return 'success';
  return result.error?.code === 'max_steps' ? 'error_max_turns' : 'error_during_execution';
}

/**
 * Claude Code's final `result` message for the runs of one prompt: `json` prints it alone,
 * `stream-json` ends with it. Cairn's extras (`run_id`, `status`, `model`, `plan`, `error`) are
 * snake_case too; fields Claude Code documents keep its names and types.
 */
export function resultLine(sessionId: string, runs: FinishedRun[]): HeadlessLine {
  const last = runs.at(-1);
  if (!last) throw new Error('resultLine needs at least one run');
  const { result } = last;
  const isError = result.status !== 'finished';
  const errorText = result.error?.message ?? (result.status === 'cancelled' ? 'The run was cancelled.' : 'The run failed.');
  const plan = runs.map((run) => run.tally.plan).find(Boolean);
  return {
    type: 'result',
    subtype: subtypeOf(result),
    is_error: isError,
    result: isError ? errorText : (result.result ?? ''),
    ...(isError ? { errors: [errorText] } : {}),
    session_id: sessionId,
    num_turns: sum(runs, (run) => run.tally.turns),
    duration_ms: sum(runs, (run) => run.result.durationMs ?? 0),
    duration_api_ms: sum(runs, (run) => run.tally.apiMs),
    total_cost_usd: sum(runs, (run) => run.costUsd),
    usage: runs.reduce<SnakeUsage>((total, run) => addSnakeUsage(total, snakeUsage(run.result.usage)), snakeUsage(undefined)),
    permission_denials: runs.flatMap((run) => run.tally.denials),
    uuid: randomUUID(),
    run_id: result.id,
    status: result.status,
    model: result.model?.id ?? '',
    ...(plan ? { plan } : {}),
    ...(result.error ? { error: { message: result.error.message, code: result.error.code ?? 'run_failed' } } : {}),
  };
}

/**
 * A `result` for a failure before any run (no model, a bad flag value, an unknown agent, a bad input
 * line): the same fields, zero counts, and the message that says what to change.
 */
export function errorResultLine(message: string, sessionId = '', code = 'configuration_error'): HeadlessLine {
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    result: message,
    errors: [message],
    session_id: sessionId,
    num_turns: 0,
    duration_ms: 0,
    duration_api_ms: 0,
    total_cost_usd: 0,
    usage: snakeUsage(undefined),
    permission_denials: [],
    uuid: randomUUID(),
    error: { message, code },
  };
}

function sum(runs: FinishedRun[], figure: (run: FinishedRun) => number): number {
  return runs.reduce((total, run) => total + figure(run), 0);
}
