import { isAbortError } from '@cairn/core/errors';
import { describe, expect, it } from 'vitest';
import { abortReason, rethrowIfAborted, throwIfAborted } from './abort.js';

function thrown(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('abort helpers', () => {
  it('surface the signal reason itself, or an AbortError when the reason is not an error', () => {
    const controller = new AbortController();
    controller.abort();
    expect(abortReason(controller.signal)).toBe(controller.signal.reason);
    const stopped = new AbortController();
    stopped.abort('user pressed stop');
    const reason = abortReason(stopped.signal);
    expect([isAbortError(reason), reason.name]).toEqual([true, 'AbortError']);
  });

  it('rethrowIfAborted: the signal wins over the SDK error it caused; SDK aborts pass unwrapped; other errors return', () => {
    const controller = new AbortController();
    controller.abort();
    expect(thrown(() => rethrowIfAborted(new Error('Request was aborted.'), controller.signal))).toBe(controller.signal.reason);
    const sdkAbort = Object.assign(new Error('Request was aborted.'), { name: 'APIUserAbortError' });
    expect(thrown(() => rethrowIfAborted(sdkAbort, undefined))).toBe(sdkAbort);
    expect(thrown(() => rethrowIfAborted(new Error('boom'), new AbortController().signal))).toBeUndefined();
  });

  it('throwIfAborted throws only once the signal fired', () => {
    const controller = new AbortController();
    expect(thrown(() => throwIfAborted(controller.signal))).toBeUndefined();
    expect(thrown(() => throwIfAborted(undefined))).toBeUndefined();
    controller.abort();
    expect(isAbortError(thrown(() => throwIfAborted(controller.signal)))).toBe(true);
  });
});
