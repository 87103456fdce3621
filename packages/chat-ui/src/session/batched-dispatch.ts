import type { ConversationAction } from '../state/conversation.js';

/**
 * Collect actions and hand them over once per animation frame as one `batch`: a fast stream sends
 * hundreds of text deltas a second, and one render per frame is all a reader can see anyway.
 */
export function createBatcher(dispatch: (action: ConversationAction) => void) {
  let queued: ConversationAction[] = [];
  let scheduled: (() => void) | undefined;
  const flush = () => {
    scheduled = undefined;
    const actions = queued;
    queued = [];
    if (actions.length) dispatch({ type: 'batch', actions });
  };
  return {
    dispatch(action: ConversationAction) {
      queued.push(action);
      scheduled ??= schedule(flush);
    },
    /** Drop what is queued (the agent changed: those events belong to the old one). */
    cancel() {
      scheduled?.();
      scheduled = undefined;
      queued = [];
    },
  };
}

/** Run `callback` at the next frame (or soon, where there are no frames); returns a canceller. */
function schedule(callback: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(callback);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(callback, 16);
  return () => clearTimeout(id);
}
