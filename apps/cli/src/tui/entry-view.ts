import { Box, Text } from 'ink';
import { createElement as h, type ReactElement } from 'react';
import { fg } from './colors.js';
import type { Entry } from './chat-state.js';
import { renderMarkdown } from './markdown.js';
import { todoLines, type TodoItem } from './plan-format.js';
import type { DiffLine } from './tool-format.js';

export interface ViewContext {
  width: number;
  color: boolean;
}

const diffColors: Record<DiffLine['kind'], string | undefined> = { add: 'green', remove: 'red', hunk: 'cyan', file: undefined, context: undefined };

/** One transcript entry, as it stays on screen. */
export function EntryView({ entry, view }: { entry: Entry; view: ViewContext }): ReactElement {
  switch (entry.kind) {
    case 'user':
      return h(Box, { marginTop: 1 }, h(Text, null, h(Text, { bold: true, ...fg('cyan') }, '> '), h(Text, { bold: true }, entry.text)));
    case 'markdown':
      return h(Box, { marginTop: 1 }, h(Text, null, renderMarkdown(entry.text, { width: view.width - 2, color: view.color })));
    case 'tool':
      // One Text with inline parts: a Box row would lay the parts out as columns and wrap each apart.
      return h(
        Text,
        null,
        h(Text, fg(entry.ok ? 'green' : 'red'), entry.ok ? '✓ ' : '✗ '),
        h(Text, { bold: true }, entry.name),
        h(Text, { dimColor: true }, entry.argument ? ` ${entry.argument}` : ''),
        entry.detail ? h(Text, fg('red'), ` — ${entry.detail}`) : null,
      );
    case 'diff':
      return h(DiffView, { lines: entry.lines });
    case 'todos':
      return h(TodoList, { todos: entry.todos });
    case 'banner':
      return h(Text, { bold: true }, entry.text);
    case 'info':
      return h(Text, { dimColor: true }, entry.text);
    case 'error':
      return h(Text, fg('red'), `! ${entry.text}`);
  }
}

export function DiffView({ lines }: { lines: DiffLine[] }): ReactElement {
  return h(
    Box,
    { flexDirection: 'column', marginLeft: 2 },
    ...lines.map((line, index) => h(Text, { key: index, ...fg(diffColors[line.kind]), bold: line.kind === 'file', dimColor: line.kind === 'context' }, line.text)),
  );
}

export function TodoList({ todos }: { todos: TodoItem[] }): ReactElement {
  return h(
    Box,
    { flexDirection: 'column', marginLeft: 2 },
    ...todoLines(todos).map((line, index) =>
      h(Text, { key: index, ...fg(line.status === 'completed' ? 'green' : line.status === 'in_progress' ? 'yellow' : undefined), dimColor: line.status === 'cancelled', strikethrough: line.status === 'cancelled' }, `${line.mark} ${line.text}`),
    ),
  );
}
