import type { StateStore } from './chat-state.js';

/**
 * Project MCP servers and hooks files not trusted yet are asked about in the UI, one question at a
 * time (the trust stores of commands/mcp-trust.ts and hooks-trust.ts call `ask`).
 */
export class TrustQuestions {
  private answerOpen: ((yes: boolean) => void) | undefined;
  private waiting: Array<{ question: string; resolve: (yes: boolean) => void }> = [];

  constructor(
    private readonly store: StateStore,
    /** Called when the last question is answered (an approval may be waiting behind it). */
    private readonly onIdle: () => void,
  ) {}

  /** The `AskQuestion` of the trust stores: resolves with `y` or `n`. */
  ask(question: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting.push({ question, resolve: (yes) => resolve(yes ? 'y' : 'n') });
      this.showNext();
    });
  }

  answer(yes: boolean): void {
    const answer = this.answerOpen;
    if (!answer) return;
    this.answerOpen = undefined;
    this.store.update({ prompt: undefined });
    answer(yes);
    this.showNext();
    if (!this.answerOpen) this.onIdle();
  }

  private showNext(): void {
    if (this.answerOpen) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.answerOpen = next.resolve;
    this.store.update({ prompt: { kind: 'trust', question: next.question.replace(/\s*\[y\/N\]\s*$/, '') } });
  }
}
