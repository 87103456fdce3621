import { memo } from 'react';
import type { ThinkingItem } from '../state/run-view-types.js';
import { seconds } from './format.js';

/** The model's reasoning, closed by default: most readers want the answer, some want to check why. */
export const ThinkingBlock = memo(function ThinkingBlock({ item }: { item: ThinkingItem }) {
  const label = item.open ? 'Thinking…' : item.durationMs ? `Thought for ${seconds(item.durationMs)}` : 'Thought';
  return (
    <details className="cairn-thinking" data-testid="thinking">
      <summary>{label}</summary>
      <div className="cairn-thinking-text">{item.text}</div>
    </details>
  );
});
