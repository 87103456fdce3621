import { describe, expect, it } from 'vitest';
import { editKey, emptyEditor, type EditorKey, type EditorState } from '../src/tui/input-editor.js';
import { completeSlashCommand, commonPrefix, parseSlashCommand } from '../src/tui/slash-commands.js';
import { mentionAt, replaceMention } from '../src/tui/mentions.js';

function type(state: EditorState, text: string): EditorState {
  for (const char of text) state = editKey(state, char, {}).state;
  return state;
}
const press = (state: EditorState, key: EditorKey, input = '') => editKey(state, input, key);

describe('the prompt editor', () => {
  it('submits on Enter and keeps the line in history', () => {
    const result = press(type(emptyEditor(), 'hello'), { return: true });
    expect(result.submit).toBe('hello');
    expect(result.state.text).toBe('');
    expect(result.state.history).toEqual(['hello']);
  });

  it('adds a line with Alt+Enter or a trailing backslash', () => {
    let state = press(type(emptyEditor(), 'one'), { return: true, meta: true }).state;
    expect(state.text).toBe('one\n');
    state = press(type(state, 'two\\'), { return: true }).state;
    expect(state.text).toBe('one\ntwo\n');
    expect(press(type(state, 'three'), { return: true }).submit).toBe('one\ntwo\nthree');
  });

  it('walks the history with the arrows and comes back to the draft', () => {
    let state = emptyEditor(['first', 'second']);
    state = type(state, 'draft');
    state = press(state, { upArrow: true }).state;
    expect(state.text).toBe('second');
    state = press(state, { upArrow: true }).state;
    expect(state.text).toBe('first');
    state = press(press(state, { downArrow: true }).state, { downArrow: true }).state;
    expect(state.text).toBe('draft');
  });

  it('inserts a paste whole, line breaks included, and erases backwards', () => {
    let state = press(emptyEditor(), {}, 'a\r\nb').state;
    expect(state.text).toBe('a\nb');
    expect(press(press(emptyEditor(), {}, '\u001b[200~x\ny').state, {}, '[201~').state.text).toBe('x\ny');
    state = press(state, { backspace: true }).state;
    expect(state.text).toBe('a\n');
    state = press(press(state, { leftArrow: true }).state, { delete: true }).state;
    expect(state.text).toBe('\n');
  });

  it('sends a line typed faster than it is read ("ls\\r" in one read), but keeps a pasted one, also across reads', () => {
    expect(press(emptyEditor(), {}, 'ls\r')).toMatchObject({ submit: 'ls', state: { text: '' } });
    expect(press(emptyEditor(), {}, '\u001b[200~ls\r\u001b[201~')).toMatchObject({ state: { text: 'ls\n' } });
    let state = press(emptyEditor(), {}, '\u001b[200~').state;
    const middle = press(state, {}, 'ls\r');
    expect(middle.submit).toBeUndefined();
    state = press(middle.state, {}, '\u001b[201~').state;
    expect(state).toMatchObject({ text: 'ls\n', pasting: false });
    expect(press(state, {}, 'x\r')).toMatchObject({ submit: 'ls\nx' });
  });
});

describe('slash commands', () => {
  it('parses the known commands and refuses the rest', () => {
    expect(parseSlashCommand('/mode plan')).toEqual({ type: 'mode', mode: 'plan' });
    expect(parseSlashCommand('/model openai/gpt-4.1-mini')).toEqual({ type: 'model', model: 'openai/gpt-4.1-mini' });
    expect(parseSlashCommand('/quit')).toEqual({ type: 'exit' });
    expect(parseSlashCommand('/new now')).toMatchObject({ type: 'error' });
    expect(parseSlashCommand('/mdoe plan')).toMatchObject({ type: 'error', message: expect.stringContaining('unknown command /mdoe') });
    expect(parseSlashCommand('fix the bug')).toBeUndefined();
  });

  it('completes command names, modes and model ids', () => {
    expect(completeSlashCommand('/mo', [])).toEqual(['/mode ', '/model ']);
    expect(completeSlashCommand('/mode p', [])).toEqual(['/mode plan']);
    expect(completeSlashCommand('/model openai/', ['anthropic/claude', 'openai/gpt-4.1', 'openai/gpt-4.1-mini'])).toEqual(['/model openai/gpt-4.1', '/model openai/gpt-4.1-mini']);
    expect(commonPrefix(['/model openai/gpt-4.1', '/model openai/gpt-4.1-mini'])).toBe('/model openai/gpt-4.1');
  });
});

describe('@ mentions', () => {
  it('finds the mention being typed and replaces it', () => {
    expect(mentionAt('look at @src/a')).toBe('src/a');
    expect(mentionAt('mail me@example.com')).toBeUndefined();
    expect(replaceMention('look at @src/a', 'src/app.ts')).toBe('look at @src/app.ts');
  });
});
