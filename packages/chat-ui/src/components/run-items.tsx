import { memo } from 'react';
import type { RunItem, RunViewState } from '../state/run-view-types.js';
import { MarkdownText } from './markdown-text.js';
import { PlanCard } from './plan-card.js';
import { ThinkingBlock } from './thinking-block.js';
import { TodoList } from './todo-list.js';
import { ToolCallRow } from './tool-call-row.js';

export interface RunItemsProps {
  run: RunViewState;
  /** This run's plan may still be approved from here (no later run approved one). */
  planApprovable: boolean;
  busy: boolean;
  onApprovePlan: (runId: string) => void;
}

/** One run's transcript: the user's message, then what the agent did, in order. */
export const RunItems = memo(function RunItems({ run, planApprovable, busy, onApprovePlan }: RunItemsProps) {
  return (
    <section className="cairn-run" data-run-id={run.runId} data-status={run.status} aria-label="Run">
      {run.items.map((item) => (
        <Item key={item.id} item={item} run={run} planApprovable={planApprovable} busy={busy} onApprovePlan={onApprovePlan} />
      ))}
    </section>
  );
});

function Item({ item, run, planApprovable, busy, onApprovePlan }: RunItemsProps & { item: RunItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="cairn-message cairn-message-user" data-testid="user-message">
          <span className="cairn-visually-hidden">You said: </span>
          <div className="cairn-user-text">{item.text}</div>
        </div>
      );
    case 'assistant-text':
      return (
        <div className="cairn-message cairn-message-assistant" data-testid="assistant-text" data-streaming={item.open ? 'true' : 'false'}>
          <MarkdownText text={item.text} />
        </div>
      );
    case 'thinking':
      return <ThinkingBlock item={item} />;
    case 'tool':
      return <ToolCallRow item={item} />;
    case 'todos':
      return <TodoList todos={run.todos} />;
    case 'plan':
      return <PlanCard plan={item.plan} canApprove={planApprovable} busy={busy} onApprove={() => run.runId && onApprovePlan(run.runId)} />;
    case 'notice':
      return (
        <p className={`cairn-notice cairn-notice-${item.level}`} role={item.level === 'error' ? 'alert' : undefined}>
          {item.text}
        </p>
      );
  }
}
