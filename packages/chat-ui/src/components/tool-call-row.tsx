import { memo } from 'react';
import type { ToolItem, ToolStatus } from '../state/run-view-types.js';
import { DiffView } from './diff-view.js';
import { mainArgument, prettyJson } from './format.js';

const statusText: Record<ToolStatus, string> = {
  streaming: 'preparing',
  running: 'running',
  'awaiting-approval': 'waiting for approval',
  completed: 'done',
  error: 'failed',
};

/**
 * One tool call: a collapsed row (name, what it works on, status) that opens to its arguments, live
 * output and result. An edit's diff shows below the row, open: it is what the reader came for.
 */
export const ToolCallRow = memo(function ToolCallRow({ item }: { item: ToolItem }) {
  const argument = mainArgument(item.args);
  return (
    <div className="cairn-tool" data-testid="tool-call" data-tool-name={item.name} data-status={item.status} data-call-id={item.callId}>
      <details className="cairn-tool-details">
        <summary>
          <span className={`cairn-tool-status cairn-tool-status-${item.status}`} aria-hidden="true" />
          <span className="cairn-tool-name">{item.name}</span>
          {argument ? <code className="cairn-tool-arg">{argument}</code> : null}
          <span className="cairn-tool-state">{statusText[item.status]}</span>
        </summary>
        <div className="cairn-tool-body">
          <ToolSection title="Arguments" text={item.args === undefined ? (item.argsText ?? '') : prettyJson(item.args)} />
          {item.output ? <ToolSection title="Output" text={item.output} /> : null}
          {item.result !== undefined ? <ToolSection title={item.isError ? 'Error' : 'Result'} text={item.result} error={item.isError} /> : null}
        </div>
      </details>
      {item.diff ? <DiffView diff={item.diff} /> : null}
    </div>
  );
});

function ToolSection({ title, text, error }: { title: string; text: string; error?: boolean }) {
  if (!text) return null;
  return (
    <section className="cairn-tool-section">
      <h4>{title}</h4>
      <pre className={error ? 'cairn-tool-pre cairn-tool-error' : 'cairn-tool-pre'}>{text}</pre>
    </section>
  );
}
