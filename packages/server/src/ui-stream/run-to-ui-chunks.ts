import { addUsage } from '@cairn/core';
import type { InteractionUpdate, SDKMessage, SDKStatusMessage, StoredRunEvent, TokenUsage } from '@cairn/core';
import { ApprovalParts } from './approval-parts.js';
import type { CairnCompactionData } from './cairn-data.js';
import { dataChunk, dataChunksOfUpdate, runStartChunks, taskChunk } from './data-chunks.js';
import { type FinalRunStatus, finalStatusOf, type RunError, type RunTotals, terminalChunks, uiFinishReason, unfinishedCallText } from './run-end.js';
import { StepParts } from './step-parts.js';
import { ToolCallParts } from './tool-call-parts.js';
import type { CairnMessageMetadata, UIChunk, UIFinishReason } from './ui-chunks.js';

export interface UiChunkConverterOptions {
  /** The id of the assistant message the chunks build (`start.messageId`). */
  messageId: string;
  /** The run's id; taken from the log's first message when not given. */
  runId?: string;
}

/** Turns one run's event log, in order, into the chunks of one assistant message. */
export interface UiChunkConverter {
  /** The chunks of one stored event. An offset at or below the last one pushed is a replayed event and gives none. */
  push(stored: StoredRunEvent): UIChunk[];
  /** Close the message (the log's final status event does this by itself). Once ended, gives none. */
  end(status: FinalRunStatus, error?: RunError, totals?: RunTotals): UIChunk[];
  readonly ended: boolean;
}

export function createUiChunkConverter(options: UiChunkConverterOptions): UiChunkConverter {
  return new RunToUiChunks(options);
}

/** The chunks of a run's events as they come; after the log's final event, nothing more. */
export async function* uiChunksOfRun(events: AsyncIterable<StoredRunEvent>, options: UiChunkConverterOptions): AsyncGenerator<UIChunk> {
  const converter = createUiChunkConverter(options);
  for await (const stored of events) {
    yield* converter.push(stored);
    if (converter.ended) return;
  }
}

const unfinishedStepCallText = 'The call did not run: its model step ended without a result for it.';

class RunToUiChunks implements UiChunkConverter {
  ended = false;
  private started = false;
  private lastOffset = 0;
  private runId: string | undefined;
  private usage: TokenUsage | undefined;
  private finishReason: UIFinishReason | undefined;
  private compactions = 0;
  private compaction: CairnCompactionData | undefined;
  private readonly steps = new StepParts();
  private readonly tools = new ToolCallParts();
  private readonly approvals = new ApprovalParts();

  constructor(private readonly options: UiChunkConverterOptions) {
    this.runId = options.runId;
  }

  push({ offset, event }: StoredRunEvent): UIChunk[] {
    if (this.ended || offset <= this.lastOffset) return [];
    this.lastOffset = offset;
    if (event.kind === 'message') this.runId ??= event.message.run_id;
    const chunks = this.start();
    chunks.push(...(event.kind === 'message' ? this.message(event.message, offset) : this.update(event.update, offset)));
    return chunks;
  }

  end(status: FinalRunStatus, error?: RunError, totals?: RunTotals): UIChunk[] {
    if (this.ended) return [];
    const chunks = this.start();
    this.ended = true;
    const usage = totals?.usage ?? this.usage;
    const metadata: CairnMessageMetadata = {
      ...(this.runId ? { runId: this.runId } : {}),
      status,
      ...(status === 'cancelled' ? {} : { finishReason: status === 'error' ? 'error' : (this.finishReason ?? 'other') }),
      ...(usage ? { usage } : {}),
      ...(totals?.cost ? { cost: totals.cost } : {}),
      ...(error ? { error } : {}),
    };
    chunks.push(...this.closeStep(unfinishedCallText(status)), ...this.approvals.settleAtRunEnd());
    if (usage && (totals?.usage || totals?.cost)) chunks.push(dataChunk('cairn-usage', 'usage', { usage, ...(totals.cost ? { cost: totals.cost } : {}) }));
    chunks.push(dataChunk('cairn-status', 'status', { status, ...(error ? { error } : {}) }));
    chunks.push(...terminalChunks(status, metadata, error));
    return chunks;
  }

  private start(): UIChunk[] {
    if (this.started) return [];
    this.started = true;
    const metadata: CairnMessageMetadata = { ...(this.runId ? { runId: this.runId } : {}), status: 'running' };
    return [{ type: 'start', messageId: this.options.messageId, messageMetadata: metadata }];
  }

  /** Close the step's text and reasoning, end its calls left without a result, then the step itself. */
  private closeStep(unfinishedCall: string): UIChunk[] {
    return [...this.steps.closeParts(), ...this.tools.failPending(unfinishedCall), ...this.steps.finish()];
  }

  private update(update: InteractionUpdate, offset: number): UIChunk[] {
    switch (update.type) {
      case 'step-started':
        // A step that failed and is tried again gets no step-completed: close it here.
        return [...this.closeStep(unfinishedStepCallText), ...this.steps.open()];
      case 'text-delta':
        return this.steps.text(update.text, offset);
      case 'thinking-delta':
        return this.steps.reasoning(update.text, offset);
      case 'thinking-completed':
        return this.steps.closeReasoning();
      case 'partial-tool-call':
        return [...this.steps.open(), ...this.steps.closeParts(), ...this.tools.partial(update)];
      case 'tool-call-started':
        return [...this.steps.open(), ...this.steps.closeParts(), ...this.tools.started(update)];
      case 'tool-call-completed':
        return this.tools.completed(update);
      case 'turn-ended':
        // Its usage is the usage message's, already counted.
        return this.steps.closeParts();
      case 'step-completed':
        this.finishReason = uiFinishReason(update.finishReason);
        return this.closeStep(unfinishedStepCallText);
      case 'approval-requested':
        return this.approvals.requested(update);
      case 'approval-decided':
        return this.approvals.decided(update);
      case 'summary-started':
      case 'summary':
      case 'summary-completed':
        return this.compactionChunks(update);
      case 'user-message-appended':
        // The user's message is the request's own: the client shows it already.
        return [];
      default:
        return dataChunksOfUpdate(update, offset);
    }
  }

  private message(message: SDKMessage, offset: number): UIChunk[] {
    switch (message.type) {
      case 'system':
        return runStartChunks(message);
      case 'status':
        return this.status(message, offset);
      case 'usage':
        this.usage = this.usage ? addUsage(this.usage, message.usage) : message.usage;
        return [dataChunk('cairn-usage', 'usage', { usage: this.usage })];
      case 'task':
        return [taskChunk(message, offset)];
      // Said already by the updates: the step's text and calls (text-delta, tool-call-*), its thinking
      // (thinking-delta); the user's text is the request's. The provider's request id is for logs.
      case 'user':
      case 'assistant':
      case 'thinking':
      case 'tool_call':
      case 'request':
        return [];
    }
  }

  private status(message: SDKStatusMessage, offset: number): UIChunk[] {
    const final = finalStatusOf(message);
    if (final) return this.end(final.status, final.error);
    // A running message with text but no phase is a notice about the run's options: kept apart, not replaced.
    if (message.message && !message.phase) return [dataChunk('cairn-notice', `notice-${offset}`, { message: message.message })];
    const { phase, mode } = message;
    return [dataChunk('cairn-status', 'status', { status: 'running', ...(phase ? { phase } : {}), ...(message.message ? { message: message.message } : {}), ...(mode ? { mode } : {}) })];
  }

  private compactionChunks(update: Extract<InteractionUpdate, { type: 'summary-started' | 'summary' | 'summary-completed' }>): UIChunk[] {
    if (update.type === 'summary-started' || !this.compaction) {
      this.compactions += 1;
      this.compaction = { status: 'started' };
    }
    if (update.type === 'summary') this.compaction = { ...this.compaction, status: 'summarized', summary: update.summary };
    if (update.type === 'summary-completed') {
      const { tokensBefore, tokensAfter } = update;
      this.compaction = { ...this.compaction, status: 'completed', ...(tokensBefore === undefined ? {} : { tokensBefore }), ...(tokensAfter === undefined ? {} : { tokensAfter }) };
    }
    return [dataChunk('cairn-compaction', `compaction-${this.compactions}`, this.compaction)];
  }
}
