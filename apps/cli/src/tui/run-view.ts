import type { InteractionUpdate, ToolCall } from '@cairn/sdk';
import type { StateStore } from './chat-state.js';
import { splitStableMarkdown } from './markdown.js';
import type { ProposedPlan, TodoItem } from './plan-format.js';
import { editDiff, mainArgument, oneLine, runningLabel } from './tool-format.js';

/** Tools whose result is shown another way (the checklist, the plan), not as a result to expand. */
const quietTools = new Set(['todo_write', 'create_plan']);

/**
 * Turns one run's updates into transcript entries and live state: the answer
 * streams into `live` and its finished paragraphs move to the transcript; each finished tool call
 * becomes a one-line entry (plus a diff for edits); todos and the running tool feed the status area.
 */
export class RunView {
  plan: ProposedPlan | undefined;
  private readonly runningTools = new Map<string, string>();
  private todosChanged = false;

  constructor(private readonly store: StateStore) {}

  onUpdate(update: InteractionUpdate): void {
    switch (update.type) {
      case 'text-delta':
        this.appendText(update.text);
        break;
      case 'tool-call-started':
        this.flushText();
        this.runningTools.set(update.callId, runningLabel(update.toolCall.name, update.toolCall.args));
        this.showRunningTool();
        break;
      case 'tool-call-completed':
        this.runningTools.delete(update.callId);
        this.showRunningTool();
        this.addToolCall(update.toolCall);
        break;
      case 'todos-updated':
        this.todosChanged = true;
        this.store.update({ todos: update.todos.map((todo) => ({ ...todo })) });
        break;
      case 'plan-created':
        this.plan = update.plan as ProposedPlan;
        break;
      case 'mode-changed':
        this.flushText();
        this.store.push({ kind: 'info', text: `mode ${update.from} -> ${update.to}` });
        this.store.update((state) => ({ footer: { ...state.footer, mode: update.to } }));
        break;
      case 'retry':
        this.store.push({ kind: 'info', text: `retrying in ${Math.round(update.delayMs / 100) / 10} s: ${update.reason}` });
        break;
      case 'warning':
        this.flushText();
        this.store.push({ kind: 'error', text: update.message });
        break;
      default:
        break;
    }
  }

  /**
   * A finished tool call as a one-line entry, plus its diff for an edit. From the completed update
   * (not the `tool_call` message): it comes in order with the text deltas and carries the tool's
   * `structuredContent`, where edit_file puts the real diff of its merged sketch.
   */
  private addToolCall(call: ToolCall): void {
    this.flushText();
    const ok = call.status !== 'error' && !call.isError;
    const result = call.result ?? '';
    const argument = call.name === 'todo_write' ? todoCount(call.args) : mainArgument(call.args);
    this.store.push({ kind: 'tool', name: call.name, argument, ok, ...(ok ? {} : { detail: oneLine(result, 160) }) });
    const diff = ok ? editDiff(call.name, call.args, call.structuredContent) : undefined;
    if (diff) this.store.push({ kind: 'diff', lines: diff });
    if (!quietTools.has(call.name)) this.store.update({ lastResult: { title: `${call.name} ${argument}`, text: result } });
  }

  /** The run ended: the rest of the answer and the final checklist go to the transcript. */
  finish(): void {
    this.flushText();
    const { todos } = this.store.get();
    if (this.todosChanged && todos.length) this.store.push({ kind: 'todos', todos: todos.map((todo: TodoItem) => ({ ...todo })) });
  }

  private appendText(text: string): void {
    const { done, rest } = splitStableMarkdown(this.store.get().live + text);
    if (done.trim()) this.store.push({ kind: 'markdown', text: done });
    this.store.update({ live: rest });
  }

  private flushText(): void {
    const { live } = this.store.get();
    if (live.trim()) this.store.push({ kind: 'markdown', text: live });
    if (live) this.store.update({ live: '' });
  }

  private showRunningTool(): void {
    const labels = [...this.runningTools.values()];
    this.store.update((state) => (state.running ? { running: { ...state.running, ...(labels.length ? { tool: labels.at(-1) } : { tool: undefined }) } } : {}));
  }
}

function todoCount(args: unknown): string {
  const todos = (args as { todos?: unknown[] } | undefined)?.todos;
  return Array.isArray(todos) ? `${todos.length} todo${todos.length === 1 ? '' : 's'}` : '';
}
