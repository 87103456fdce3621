import { describe, expect, it } from 'vitest';
import { renderMarkdown, splitStableMarkdown } from '../src/tui/markdown.js';
import { planMarkdown, todoLines } from '../src/tui/plan-format.js';
import { editDiff, mainArgument, runningLabel } from '../src/tui/tool-format.js';

describe('terminal markdown', () => {
  it('renders headings, emphasis, lists and code without the markdown syntax', () => {
    const out = renderMarkdown('# Title\n\nSome **bold** and `code`.\n\n```ts\nconst a = 1;\n```\n\n- one\n- two\n', { width: 80, color: false });
    expect(out).toContain('Title');
    expect(out).not.toContain('**');
    expect(out).toContain('const a = 1;');
    expect(out).toMatch(/one/);
  });

  it('prints no escape codes without colour', () => {
    expect(renderMarkdown('## Sub\n\n```js\nconst a = 1;\n```\n', { width: 80, color: false })).not.toContain('\u001b[');
  });

  it('freezes text only up to the last blank line outside a code fence', () => {
    expect(splitStableMarkdown('para one\n\npara two')).toEqual({ done: 'para one\n\n', rest: 'para two' });
    expect(splitStableMarkdown('intro\n\n```\ncode\n\nmore')).toEqual({ done: 'intro\n\n', rest: '```\ncode\n\nmore' });
    expect(splitStableMarkdown('no break yet')).toEqual({ done: '', rest: 'no break yet' });
  });
});

describe('tool lines and diffs', () => {
  it('names the main argument of a call', () => {
    expect(mainArgument({ command: 'npm test', is_background: false })).toBe('npm test');
    expect(mainArgument({ path: 'src/a.ts', old_string: 'x' })).toBe('src/a.ts');
    expect(runningLabel('run_terminal_cmd', { command: 'npm test' })).toBe('npm test');
    expect(runningLabel('read_file', { path: 'src/a.ts' })).toBe('read_file src/a.ts');
  });

  it('shows search_replace as a unified diff', () => {
    const lines = editDiff('search_replace', { path: 'a.ts', old_string: 'const a = 1;\n', new_string: 'const a = 2;\n' });
    expect(lines?.map((line) => line.kind)).toEqual(['file', 'hunk', 'remove', 'add']);
    expect(lines?.[2]?.text).toBe('-const a = 1;');
    expect(lines?.[3]?.text).toBe('+const a = 2;');
  });

  it("shows edit_file's reported diff (the merged change), else its sketch; a diff it cannot read falls back", () => {
    const diff = '===================================================================\n--- calc.ts\n+++ calc.ts\n@@ -1,2 +1,2 @@\n export function add() {\n-  return 1;\n+  return 2;\n';
    const lines = editDiff('edit_file', { path: 'calc.ts', code_edit: '// ... existing code ...\n  return 2;' }, { path: 'calc.ts', diff });
    expect(lines?.map((line) => line.text)).toEqual(['calc.ts', '@@ -1,2 +1,2 @@', ' export function add() {', '-  return 1;', '+  return 2;']);
    expect(editDiff('edit_file', { path: 'calc.ts', code_edit: 'x' }, { diff: '@@ broken' })?.map((line) => line.kind)).toEqual(['file', 'hunk', 'add']);
  });

  it('shows a write as added lines and leaves other tools alone', () => {
    expect(editDiff('write', { path: 'n.txt', contents: 'one\ntwo' })?.filter((line) => line.kind === 'add').map((line) => line.text)).toEqual(['+one', '+two']);
    expect(editDiff('read_file', { path: 'n.txt' })).toBeUndefined();
  });
});

describe('plans and todos', () => {
  it('renders the whole plan with its steps', () => {
    const text = planMarkdown({ name: 'Greeting', overview: 'Add a greeting.', plan: 'Write hello.txt.', todos: [{ id: 'a', content: 'write the file' }, { id: 'b', content: 'test it', dependencies: ['a'] }] });
    expect(text).toContain('# Plan: Greeting');
    expect(text).toContain('Write hello.txt.');
    expect(text).toContain('2. test it (after a)');
  });

  it('marks todos by status', () => {
    expect(todoLines([{ id: '1', content: 'a', status: 'completed' }, { id: '2', content: 'b', status: 'in_progress' }, { id: '3', content: 'c', status: 'pending' }]).map((line) => line.mark)).toEqual(['[x]', '[~]', '[ ]']);
  });
});
