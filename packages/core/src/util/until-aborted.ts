/**
 * `promise`, or a rejection with the signal's reason as soon as `signal` aborts. The work itself goes
 * on: this is for waiting on something that may ignore its signal (a tool, a hook, a server start)
 * without letting it hold a cancelled run.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
