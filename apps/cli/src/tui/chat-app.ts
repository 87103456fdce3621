import { Box, type Key, Static, Text, useApp, useInput, useStdout } from 'ink';
import { createElement as h, type ReactElement, useEffect, useReducer, useRef, useState, useSyncExternalStore } from 'react';
import type { ChatSession } from './chat-session.js';
import type { Entry } from './chat-state.js';
import { EntryView, TodoList, type ViewContext } from './entry-view.js';
import { editKey, emptyEditor, type EditorState, setText } from './input-editor.js';
import { renderMarkdown } from './markdown.js';
import { completePath, mentionAt, replaceMention } from './mentions.js';
import { PromptView } from './prompt-view.js';
import { commonPrefix, completeSlashCommand } from './slash-commands.js';
import { Footer, InputView, StatusLine } from './status-view.js';

/** The whole chat screen: the transcript (static), then the live answer, status, prompt and footer. */
export function ChatApp({ session, color }: { session: ChatSession; color: boolean }): ReactElement {
  const state = useSyncExternalStore(
    (listener) => session.store.subscribe(listener),
    () => session.store.get(),
  );
  const { exit } = useApp();
  const { stdout } = useStdout();
  const view: ViewContext = { width: stdout.columns || 100, color };
  // The editor lives in a ref: keys typed faster than React renders must each see the previous key's result.
  const editorRef = useRef<EditorState>(emptyEditor());
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const setEditor = (next: EditorState) => {
    editorRef.current = next;
    rerender();
  };
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const now = useClock(state.running !== undefined);

  useEffect(() => {
    if (state.exited) exit();
  }, [state.exited, exit]);

  // A resumed agent's earlier messages become the input history (the ones sent here follow them).
  useEffect(() => {
    const editor = editorRef.current;
    if (state.history.length) setEditor({ ...editor, history: [...state.history, ...editor.history], historyIndex: state.history.length + editor.history.length });
  }, [state.history]);

  useInput((input, key) => {
    const current = session.store.get();
    const editor = editorRef.current;
    if (key.ctrl && input === 'c') {
      if (!current.running && !current.prompt && editor.text) return setEditor(emptyEditor(editor.history));
      return session.interrupt();
    }
    session.disarmExit();
    if (current.prompt) return answerPrompt(session, current.prompt.kind, input, key);
    if (key.ctrl && input === 'o') return session.toggleLastResult();
    if (key.ctrl && input === 'd' && !editor.text) return session.store.update({ exited: true });
    if (key.tab) return void complete(session, editorRef, setEditor, setSuggestions);
    const { state: next, submit } = editKey(editor, input, key);
    setEditor(next);
    if (next.text !== editor.text) setSuggestions([]);
    if (submit !== undefined) void session.submit(submit);
  });

  const editor = editorRef.current;
  const hint = modelHint(session, editor.text);
  return h(
    Box,
    { flexDirection: 'column' },
    h(Static<Entry>, { items: state.entries, children: (entry: Entry) => h(EntryView, { key: entry.id, entry, view }) }),
    state.live.trim() ? h(Box, { marginTop: 1 }, h(Text, null, liveTail(renderMarkdown(state.live, { width: view.width - 2, color }), (stdout.rows || 30) - 10))) : null,
    state.running && state.todos.length ? h(TodoList, { todos: state.todos }) : null,
    state.expanded && state.lastResult ? h(ExpandedResult, { ...state.lastResult, rows: stdout.rows || 30 }) : null,
    state.prompt ? h(PromptView, { prompt: state.prompt }) : null,
    state.running ? h(StatusLine, { running: state.running, now }) : null,
    state.prompt ? null : h(InputView, { text: editor.text, cursor: editor.cursor, hint, suggestions }),
    h(Footer, { footer: state.footer, exitArmed: state.exitArmed }),
  );
}

/**
 * The streaming part, cut to its last lines: a live area taller than the terminal makes Ink clear
 * and redraw the whole screen on every delta. The whole text reaches the transcript when it is done.
 */
function liveTail(text: string, rows: number): string {
  const lines = text.split('\n');
  const keep = Math.max(3, rows);
  return lines.length <= keep ? text : [`… ${lines.length - keep} more lines above (shown in full when the paragraph is done)`, ...lines.slice(-keep)].join('\n');
}

function ExpandedResult({ title, text, rows }: { title: string; text: string; rows: number }): ReactElement {
  const lines = text.split('\n');
  const shown = lines.slice(0, Math.max(5, rows - 12));
  return h(
    Box,
    { flexDirection: 'column', borderStyle: 'single', paddingX: 1 },
    h(Text, { bold: true }, `${title} (Ctrl+O hides)`),
    h(Text, null, shown.join('\n') || '(no output)'),
    lines.length > shown.length ? h(Text, { dimColor: true }, `… ${lines.length - shown.length} more lines`) : null,
  );
}

/** Keys while a question is on screen: see PromptView for the texts that name them. */
function answerPrompt(session: ChatSession, kind: string, input: string, key: Key): void {
  const letter = input.toLowerCase();
  if (kind === 'approval') {
    if (letter === 'y') void session.answerApproval('once');
    else if (letter === 'a') void session.answerApproval('always');
    else if (letter === 'n' || key.escape) void session.answerApproval('deny');
  } else if (kind === 'plan') {
    if (letter === 'y') void session.answerPlan('approve');
    else if (letter === 'e') void session.answerPlan('edit');
    else if (letter === 'n' || key.escape) void session.answerPlan('reject');
  } else if (kind === 'trust') {
    if (letter === 'y') session.answerTrustQuestion(true);
    else if (letter === 'n' || key.escape || key.return) session.answerTrustQuestion(false);
  } else if (kind === 'picker') {
    if (key.upArrow) session.movePicker(-1);
    else if (key.downArrow) session.movePicker(1);
    else if (key.return) void session.choosePicked(true);
    else if (key.escape) void session.choosePicked(false);
  }
}

/** Tab: complete a slash command, a mode, a model id or an `@path`; several matches are listed. */
async function complete(session: ChatSession, editorRef: { current: EditorState }, setEditor: (state: EditorState) => void, setSuggestions: (list: string[]) => void): Promise<void> {
  const editor = editorRef.current;
  const mention = mentionAt(editor.text);
  let candidates: string[];
  let apply: (choice: string) => string;
  if (editor.text.startsWith('/') && !editor.text.includes('\n')) {
    candidates = completeSlashCommand(editor.text, session.modelIds);
    apply = (choice) => choice;
  } else if (mention !== undefined) {
    const paths = await completePath(session.store.get().footer.cwd, mention);
    candidates = paths;
    apply = (choice) => replaceMention(editor.text, choice);
  } else return;
  if (candidates.length === 0) return setSuggestions([]);
  const prefix = candidates.length === 1 ? (candidates[0] ?? '') : commonPrefix(candidates);
  const text = apply(prefix);
  // A path lookup is asynchronous: keys typed meanwhile win over the completion.
  if (editorRef.current.text !== editor.text) return;
  if (text.length > editor.text.length) setEditor(setText(editor, text));
  setSuggestions(candidates.length > 1 ? candidates : []);
}

/** While `/model <id>` is typed: whether the registry knows the id. */
function modelHint(session: ChatSession, text: string): { ok: boolean; text: string } | undefined {
  const match = /^\/model\s+(\S+)$/.exec(text);
  if (!match?.[1]) return undefined;
  const problem = session.checkModel(match[1]);
  return problem ? { ok: false, text: problem } : { ok: true, text: `${match[1]} is available` };
}

/** The current time, ticking while a run goes on (spinner and elapsed seconds). */
function useClock(ticking: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}
