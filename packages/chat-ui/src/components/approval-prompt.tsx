import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import type { ApprovalView } from '../state/run-view-types.js';
import type { ApprovalDecisionValue } from '../wire-types.js';
import { mainArgument, prettyJson } from './format.js';

export interface ApprovalPromptProps {
  approval: ApprovalView & { runId: string };
  onAnswer: (runId: string, callId: string, decision: ApprovalDecisionValue, reason?: string) => Promise<void>;
}

/**
 * One request the run waits on. Keyboard: the first button takes focus when the request appears
 * (unless the user is typing); Tab moves through the buttons and the reason; Enter on a button
 * answers with it, Enter in the reason field denies with that reason, Escape anywhere denies.
 */
export function ApprovalPrompt({ approval, onAnswer }: ApprovalPromptProps) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const reasonId = useId();

  useEffect(() => {
    if (!isTyping(document.activeElement)) first.current?.focus();
  }, []);

  const answer = async (decision: ApprovalDecisionValue) => {
    if (busy) return;
    setBusy(true);
    try {
      await onAnswer(approval.runId, approval.callId, decision, reason.trim() || undefined);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      void answer('deny');
    } else if (event.key === 'Enter' && event.target instanceof HTMLInputElement) {
      event.preventDefault();
      void answer('deny');
    }
  };

  return (
    // The keys answer the request from any of its controls; each control is focusable on its own.
    <section className="cairn-approval" data-testid="approval" data-kind={approval.kind} data-call-id={approval.callId} aria-labelledby={titleId} onKeyDown={onKeyDown}>
      <h3 id={titleId} className="cairn-approval-title">
        {title(approval)}
      </h3>
      <ApprovalDetails approval={approval} />
      <div className="cairn-approval-actions">
        <button ref={first} type="button" className="cairn-button cairn-button-primary" data-testid="approve-once" disabled={busy} onClick={() => void answer('allow')}>
          Allow once
        </button>
        {approval.kind === 'tool' ? (
          <button type="button" className="cairn-button" data-testid="approve-always" disabled={busy} onClick={() => void answer('allow-always')} title="Also allow later calls like this one in this workspace">
            Allow always
          </button>
        ) : null}
        <button type="button" className="cairn-button cairn-button-danger" data-testid="deny" disabled={busy} onClick={() => void answer('deny')}>
          Deny
        </button>
      </div>
      <label className="cairn-approval-reason" htmlFor={reasonId}>
        <span>Reason (optional, shown to the agent when you deny)</span>
        <input id={reasonId} type="text" value={reason} onChange={(event) => setReason(event.target.value)} disabled={busy} autoComplete="off" />
      </label>
    </section>
  );
}

function title(approval: ApprovalView): string {
  if (approval.kind === 'plan') return 'Run the plan?';
  if (approval.kind === 'mode-switch') return `Switch to ${approval.modeSwitch?.to ?? 'another'} mode?`;
  const argument = mainArgument(approval.args, 60);
  return `Allow ${approval.toolName ?? 'this tool'}${argument ? ` ${argument}` : ''}?`;
}

function ApprovalDetails({ approval }: { approval: ApprovalView }) {
  const change = approval.modeSwitch;
  return (
    <div className="cairn-approval-details">
      {approval.reason ? <p className="cairn-approval-why">{approval.reason}</p> : null}
      {change ? (
        <p>
          {change.from} → {change.to}
          {change.explanation ? `: ${change.explanation}` : ''}
          {change.addedRights?.length ? <span className="cairn-muted"> (adds: {change.addedRights.join(', ')})</span> : null}
        </p>
      ) : null}
      {approval.kind === 'tool' && approval.args !== undefined ? (
        <details>
          <summary>Arguments</summary>
          <pre className="cairn-tool-pre">{prettyJson(approval.args)}</pre>
        </details>
      ) : null}
    </div>
  );
}

/** Someone writing a message keeps their focus; a request does not steal it. */
function isTyping(element: Element | null): boolean {
  return (element instanceof HTMLTextAreaElement || element instanceof HTMLInputElement) && element.value.length > 0;
}
