import { memo } from 'react';
import type { PlanView } from '../state/plan-view.js';
import { MarkdownText } from './markdown-text.js';

export interface PlanCardProps {
  plan: PlanView;
  /** Offered when nothing approved or rejected this plan yet. */
  canApprove: boolean;
  busy: boolean;
  onApprove: () => void;
}

/** A proposed plan: name, overview, the markdown body and its steps, and the Approve button. */
export const PlanCard = memo(function PlanCard({ plan, canApprove, busy, onApprove }: PlanCardProps) {
  return (
    <article className="cairn-plan" data-testid="plan" aria-label={`Plan: ${plan.name}`} data-decision={plan.decision ?? 'proposed'}>
      <h3 className="cairn-plan-name">{plan.name}</h3>
      {plan.overview ? <p className="cairn-plan-overview">{plan.overview}</p> : null}
      {plan.body ? <MarkdownText text={plan.body} /> : null}
      {plan.steps.length ? (
        <ol className="cairn-plan-steps">
          {plan.steps.map((step) => (
            <li key={step.id}>
              {step.content}
              {step.dependencies.length ? <span className="cairn-muted"> (after {step.dependencies.join(', ')})</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {plan.decision ? <p className="cairn-plan-decision">{plan.decision === 'approved' ? 'Approved.' : 'Not approved.'}</p> : null}
      {canApprove && !plan.decision ? (
        <button type="button" className="cairn-button cairn-button-primary" data-testid="approve-plan" disabled={busy} onClick={onApprove}>
          Approve plan
        </button>
      ) : null}
    </article>
  );
});
