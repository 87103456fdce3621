import type { ApprovalRequest } from '@cairn/server/workspace-permissions';
import type { ProposedPlan, TodoItem } from './plan-format.js';
import type { DiffLine } from './tool-format.js';

/** One finished piece of the transcript; entries only ever get appended (they go to Ink's <Static>). */
export type Entry =
  | { id: number; kind: 'user'; text: string }
  | { id: number; kind: 'markdown'; text: string }
  | { id: number; kind: 'tool'; name: string; argument: string; ok: boolean; detail?: string }
  | { id: number; kind: 'diff'; lines: DiffLine[] }
  | { id: number; kind: 'todos'; todos: TodoItem[] }
  | { id: number; kind: 'info' | 'error' | 'banner'; text: string };

export type EntryInput = Entry extends infer E ? (E extends Entry ? Omit<E, 'id'> : never) : never;

/** A question the run waits on: a tool call or mode switch to approve, or a project file to trust. */
export type Prompt =
  | { kind: 'approval'; request: ApprovalRequest; canRemember: boolean }
  | { kind: 'plan'; plan: ProposedPlan; callId?: string }
  | { kind: 'trust'; question: string }
  | { kind: 'picker'; title: string; items: Array<{ id: string; label: string; detail: string }>; index: number };

export interface RunningState {
  startedAt: number;
  /** What the status line names: `npm test`, `read_file src/a.ts`; absent while the model writes. */
  tool?: string;
  waiting?: boolean;
}

export interface FooterState {
  agentId: string;
  model: string;
  mode: string;
  cwd: string;
  inputTokens: number;
  outputTokens: number;
  /** Cents, when the model has known prices. */
  costCents?: number;
}

export interface ChatState {
  entries: Entry[];
  /** The streaming answer's part that may still change (rendered again on every delta). */
  live: string;
  running?: RunningState;
  prompt?: Prompt;
  todos: TodoItem[];
  /** The last finished tool call's full result, shown while `expanded`. */
  lastResult?: { title: string; text: string };
  expanded: boolean;
  /** The next message asks for changes to the proposed plan (after "edit"). */
  editingPlan: boolean;
  footer: FooterState;
  /** Ctrl+C was pressed once on an idle prompt: the next one exits. */
  exitArmed: boolean;
  exited: boolean;
  /** The resumed agent's earlier user messages, oldest first: ↑ brings them back. */
  history: string[];
}

export function initialState(cwd: string): ChatState {
  return {
    entries: [],
    live: '',
    todos: [],
    expanded: false,
    editingPlan: false,
    footer: { agentId: '', model: '', mode: '', cwd, inputTokens: 0, outputTokens: 0 },
    exitArmed: false,
    exited: false,
    history: [],
  };
}

/** A small observable holder: the session mutates through `update`, the Ink app re-renders on change. */
export class StateStore {
  private listeners = new Set<() => void>();
  private nextId = 1;
  constructor(private state: ChatState) {}

  get(): ChatState {
    return this.state;
  }

  update(change: Partial<ChatState> | ((state: ChatState) => Partial<ChatState>)): void {
    const patch = typeof change === 'function' ? change(this.state) : change;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  push(...entries: EntryInput[]): void {
    if (entries.length === 0) return;
    this.update((state) => ({ entries: [...state.entries, ...entries.map((entry) => ({ ...entry, id: this.nextId++ }) as Entry)] }));
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
