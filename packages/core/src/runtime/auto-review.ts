import type { AutoRunGuidance } from '../config/auto-run-guidance.js';
import type { RetryPolicy } from '../model-call/retry-policy.js';
import { streamWithRetry } from '../model-call/stream-with-retry.js';
import type { LanguageModelV1 } from '../spec/language-model/v1/index.js';
import type { ToolCategory } from '../spec/tool/v1/index.js';
import { parseReviewAnswer } from './auto-review-answer.js';
import { autoReviewPrompt } from './auto-review-prompt.js';

/** One tool call as the reviewer sees it. */
export interface AutoReviewCall {
  toolId: string;
  toolName: string;
  category: ToolCategory;
  input: unknown;
  /** The shell command or URL (`tool.ruleSubject(input)`). */
  subject?: string;
  /** The user's message of this run: what the call must serve. */
  intent: string;
  /** The workspace root. */
  cwd: string;
  /** The workspace's `autoRun` guidance (permissions.json). */
  guidance?: AutoRunGuidance;
  /** Why the permission rules wanted approval, when they asked. */
  concern?: string;
}

/**
 * `allow` / `deny` with the reviewer's reason; `unavailable` when the review did not happen (the
 * model call failed or timed out, or the answer could not be read): the caller falls back to the
 * permission rules, as the reference does without a classifier.
 */
export interface AutoReviewVerdict {
  decision: 'allow' | 'deny' | 'unavailable';
  reason: string;
}

export interface AutoReviewer {
  /** Never throws for the reviewer's own failures (they are `unavailable`); an abort of `signal` is rethrown. */
  review(call: AutoReviewCall, signal?: AbortSignal): Promise<AutoReviewVerdict>;
}

export interface AutoReviewerOptions {
  /** The reviewing model: the agent's own, or the one `local.autoReview.model` names. */
  model: LanguageModelV1;
  /** The whole review, retries included, must finish within this (default 30 s); later it is `unavailable`. */
  timeoutMs?: number;
  /** Retry policy of the review's model call (default: the standard one, bounded by `timeoutMs`). */
  retry?: Partial<RetryPolicy>;
  /** Catalog parameters for the model (`ModelSelection.params`, checked by the registry). */
  callParams?: Record<string, string | number | boolean>;
}

export const defaultAutoReviewTimeoutMs = 30_000;

/**
 * A reviewer for one run. Identical calls (same tool, arguments, request and guidance) get the
 * first one's verdict without a second model call, concurrent ones included; a review that was
 * unavailable is not remembered, so the next identical call is reviewed again.
 */
export function createAutoReviewer(options: AutoReviewerOptions): AutoReviewer {
  const timeoutMs = options.timeoutMs ?? defaultAutoReviewTimeoutMs;
  const verdicts = new Map<string, Promise<AutoReviewVerdict>>();
  return {
    review(call, signal) {
      const key = reviewKey(call);
      const known = verdicts.get(key);
      if (known) return known;
      const pending = askReviewer(options, call, timeoutMs, signal);
      verdicts.set(key, pending);
      const forget = () => verdicts.delete(key);
      pending.then((verdict) => verdict.decision === 'unavailable' && forget(), forget);
      return pending;
    },
  };
}

async function askReviewer(options: AutoReviewerOptions, call: AutoReviewCall, timeoutMs: number, signal: AbortSignal | undefined): Promise<AutoReviewVerdict> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let text = '';
  try {
    const stream = streamWithRetry(
      options.model,
      { prompt: autoReviewPrompt(call), ...(options.callParams ? { params: options.callParams } : {}), abortSignal: combined },
      { signal: combined, ...(options.retry ? { policy: options.retry } : {}) },
    );
    for await (const part of stream) {
      if (part.type === 'text-delta') text += part.delta;
      else if (part.type === 'error') return unavailable(`the review request failed: ${describe(part.error)}`);
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    if (timeout.aborted) return unavailable(`the reviewer did not answer within ${Math.round(timeoutMs / 100) / 10} s`);
    return unavailable(`the review request failed: ${describe(error)}`);
  }
  return parseReviewAnswer(text);
}

function unavailable(reason: string): AutoReviewVerdict {
  return { decision: 'unavailable', reason };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The cache key: everything the prompt is built from, with object keys sorted. */
function reviewKey(call: AutoReviewCall): string {
  return stableJson([call.toolId, call.toolName, call.subject ?? null, call.input, call.intent, call.cwd, call.guidance ?? null, call.concern ?? null]);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
    return Object.fromEntries(Object.entries(entry).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
  });
}
