import { useLayoutEffect, useRef } from 'react';
import type { RunViewState } from '../state/run-view-types.js';
import { RunItems } from './run-items.js';

export interface MessageListProps {
  runs: RunViewState[];
  busy: boolean;
  running: boolean;
  onApprovePlan: (runId: string) => void;
  empty?: string;
}

/** Near the bottom means following along: new output then keeps the view at the end. */
const stickThreshold = 80;

/**
 * The transcript of every loaded run. `role="log"`: screen readers treat it as a growing record,
 * and `aria-busy` while a run streams keeps them from reading each delta.
 */
export function MessageList({ runs, busy, running, onApprovePlan, empty }: MessageListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const onScroll = () => {
    const element = scroller.current;
    if (element) stuck.current = element.scrollHeight - element.scrollTop - element.clientHeight < stickThreshold;
  };
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  });
  const approvableRun = lastPlanRun(runs);
  return (
    // Focusable so keyboard users can scroll it (a scrollable region must be reachable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
    <div ref={scroller} className="cairn-messages" data-testid="message-list" role="log" aria-label="Conversation" aria-busy={running} tabIndex={0} onScroll={onScroll}>
      {runs.length === 0 && empty ? <p className="cairn-empty">{empty}</p> : null}
      {runs.map((run) => (
        <RunItems key={run.runId} run={run} planApprovable={run === approvableRun} busy={busy} onApprovePlan={onApprovePlan} />
      ))}
    </div>
  );
}

/**
 * Only the newest plan can be approved, and only until a run approved one: an `approvePlan` send
 * starts a run with a `plan-approval` mode change, which that run's view records.
 */
function lastPlanRun(runs: RunViewState[]): RunViewState | undefined {
  const index = runs.findLastIndex((run) => run.plan !== undefined);
  const run = runs[index];
  if (!run || runs.slice(index).some((later) => later.planApproved)) return undefined;
  return run;
}
