/** The prompt's text, cursor and history; every change is a pure function of the old state. */
export interface EditorState {
  text: string;
  /** Offset in `text` (0..length). */
  cursor: number;
  /** Sent lines, oldest first. */
  history: string[];
  /** Which history entry is shown; `history.length` is the draft being typed. */
  historyIndex: number;
  draft: string;
  /** Inside a bracketed paste whose end marker has not arrived yet (a paste may span several reads). */
  pasting?: boolean;
}

/** The keys the editor reads (a subset of Ink's `Key`). */
export interface EditorKey {
  return?: boolean;
  meta?: boolean;
  backspace?: boolean;
  delete?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  home?: boolean;
  end?: boolean;
  ctrl?: boolean;
  tab?: boolean;
  escape?: boolean;
}

export const emptyEditor = (history: string[] = []): EditorState => ({ text: '', cursor: 0, history, historyIndex: history.length, draft: '' });

export function setText(state: EditorState, text: string): EditorState {
  return { ...state, text, cursor: text.length };
}

function insert(state: EditorState, text: string): EditorState {
  return { ...state, text: state.text.slice(0, state.cursor) + text + state.text.slice(state.cursor), cursor: state.cursor + text.length };
}

/**
 * One key press. Enter submits, unless Alt is held or the line ends with `\` (both add a line);
 * a paste arrives as one multi-character input and is inserted as it is (its line breaks kept).
 */
export function editKey(state: EditorState, input: string, key: EditorKey): { state: EditorState; submit?: string } {
  // Bracketed-paste markers (ESC[200~ … ESC[201~) frame a paste; the parser may leave them without their ESC.
  const pasted = state.pasting || /\u001b?\[200~/.test(input);
  const pasting = /\u001b?\[201~/.test(input) ? false : pasted;
  if (pasting !== Boolean(state.pasting)) state = { ...state, pasting };
  input = input.replace(/\u001b?\[20[01]~/g, '');
  // Keys typed faster than they are read arrive together ("ls\r" over a slow link): one line ending
  // in Enter, outside a bracketed paste, is typing, so it is sent rather than kept as a new line.
  if (!pasted && !key.return && /^[^\r\n]+\r$/.test(input)) return editKey(insert(state, input.slice(0, -1)), '', { return: true });
  if (!input && !key.return && !key.backspace && !key.delete && !isMove(key)) return { state };
  if (key.return) {
    if (key.meta) return { state: insert(state, '\n') };
    if (state.text.slice(0, state.cursor).endsWith('\\')) {
      const before = state.text.slice(0, state.cursor - 1);
      return { state: { ...state, text: `${before}\n${state.text.slice(state.cursor)}`, cursor: before.length + 1 } };
    }
    const submit = state.text;
    const history = submit.trim() && state.history.at(-1) !== submit ? [...state.history, submit] : state.history;
    return { state: emptyEditor(history), submit };
  }
  if (key.backspace || (key.delete && !input)) {
    // Terminals send DEL (0x7f) for Backspace, which Ink reports as `delete`: both erase backwards.
    if (state.cursor === 0) return { state };
    return { state: { ...state, text: state.text.slice(0, state.cursor - 1) + state.text.slice(state.cursor), cursor: state.cursor - 1 } };
  }
  if (key.leftArrow) return { state: { ...state, cursor: Math.max(0, state.cursor - 1) } };
  if (key.rightArrow) return { state: { ...state, cursor: Math.min(state.text.length, state.cursor + 1) } };
  if (key.home || (key.ctrl && input === 'a')) return { state: { ...state, cursor: lineStart(state.text, state.cursor) } };
  if (key.end || (key.ctrl && input === 'e')) return { state: { ...state, cursor: lineEnd(state.text, state.cursor) } };
  if (key.ctrl && input === 'u') return { state: { ...state, text: state.text.slice(state.cursor), cursor: 0 } };
  if (key.upArrow) return { state: onFirstLine(state) ? historyStep(state, -1) : moveLine(state, -1) };
  if (key.downArrow) return { state: onLastLine(state) ? historyStep(state, 1) : moveLine(state, 1) };
  if (key.ctrl || key.meta || key.tab || key.escape || !input) return { state };
  return { state: insert(state, input.replace(/\r\n?/g, '\n')) };
}

const isMove = (key: EditorKey) => Boolean(key.leftArrow || key.rightArrow || key.upArrow || key.downArrow || key.home || key.end);

const lineStart = (text: string, cursor: number) => text.lastIndexOf('\n', cursor - 1) + 1;
function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end < 0 ? text.length : end;
}
const onFirstLine = (state: EditorState) => !state.text.slice(0, state.cursor).includes('\n');
const onLastLine = (state: EditorState) => !state.text.slice(state.cursor).includes('\n');

function moveLine(state: EditorState, direction: -1 | 1): EditorState {
  const column = state.cursor - lineStart(state.text, state.cursor);
  const target = direction < 0 ? lineStart(state.text, state.cursor) - 1 : lineEnd(state.text, state.cursor) + 1;
  const start = lineStart(state.text, target);
  return { ...state, cursor: Math.min(start + column, lineEnd(state.text, start)) };
}

function historyStep(state: EditorState, direction: -1 | 1): EditorState {
  const index = Math.min(state.history.length, Math.max(0, state.historyIndex + direction));
  if (index === state.historyIndex) return state;
  const draft = state.historyIndex === state.history.length ? state.text : state.draft;
  const text = index === state.history.length ? draft : (state.history[index] ?? '');
  return { ...state, historyIndex: index, draft, text, cursor: text.length };
}
