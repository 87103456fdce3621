import { memo } from 'react';
import type { EditDiff } from '../state/edit-diff.js';

const lineClass = { add: 'cairn-diff-add', remove: 'cairn-diff-remove', context: 'cairn-diff-context', hunk: 'cairn-diff-hunk' } as const;

/** An edit as a unified diff: added lines green, removed red, hunk headers dim. */
export const DiffView = memo(function DiffView({ diff }: { diff: EditDiff }) {
  return (
    <figure className="cairn-diff" data-testid="diff" data-path={diff.path}>
      <figcaption className="cairn-diff-path">
        {diff.path}
        {diff.fromArgs ? <span className="cairn-muted"> (from the call's arguments)</span> : null}
      </figcaption>
      <pre className="cairn-diff-body">
        {diff.lines.map((line, index) => (
          // Lines have no identity of their own; the list only ever changes as a whole.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className={lineClass[line.kind]} data-kind={line.kind}>
            {line.text || ' '}
          </div>
        ))}
        {diff.truncated ? <div className="cairn-diff-hunk">… more changes not shown</div> : null}
      </pre>
    </figure>
  );
});
