import { ConfigurationError } from '../spec/errors/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';
import { defaultAutoReviewTimeoutMs } from './auto-review.js';
import { normalizeModelSelection } from './model-selection.js';

/** `local.autoReview` in its one shape; undefined when auto-review is off. */
export interface AutoReviewSettings {
  /** The reviewer's model; undefined: the agent's own model of the run. */
  model?: ModelSelection;
  timeoutMs: number;
}

const fields = new Set(['model', 'timeoutMs']);

/**
 * Check `local.autoReview`: `true` / `false` (the reference's form) or, Cairn's extension,
 * `{ model?, timeoutMs? }`. Anything else is a ConfigurationError at create, resume and send.
 */
export function autoReviewSettings(value: unknown, where: string): AutoReviewSettings | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { timeoutMs: defaultAutoReviewTimeoutMs };
  const fix = 'Pass true, or { model?: "provider/model", timeoutMs?: 30000 }.';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigurationError(`${where}: local.autoReview must be true, false or an object. ${fix}`);
  const unknown = Object.keys(value).filter((key) => !fields.has(key));
  if (unknown.length > 0) throw new ConfigurationError(`${where}: local.autoReview has no field ${unknown.map((key) => `"${key}"`).join(', ')}. ${fix}`);
  const { model, timeoutMs } = value as { model?: unknown; timeoutMs?: unknown };
  if (timeoutMs !== undefined && !(typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new ConfigurationError(`${where}: local.autoReview.timeoutMs must be a positive number of milliseconds.`);
  }
  let selection: ModelSelection | undefined;
  if (model !== undefined) {
    try {
      selection = normalizeModelSelection(model as ModelSelection | string);
    } catch (error) {
      throw new ConfigurationError(`${where}: local.autoReview.model: ${(error as Error).message}`);
    }
  }
  return { ...(selection ? { model: selection } : {}), timeoutMs: (timeoutMs as number | undefined) ?? defaultAutoReviewTimeoutMs };
}
