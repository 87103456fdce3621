import type { Registry } from '../registry/registry.js';
import { ConfigurationError } from '../spec/errors/index.js';
import type { EditFeedbackSession } from '../spec/plugin/v1/index.js';
import type { FileChange } from '../spec/tool/v1/index.js';
import type { AgentOptions } from './agent-options.js';

/** How long an edit waits for a session's feedback when the session sets no `timeoutMs`. */
export const defaultEditFeedbackTimeoutMs = 3000;

/** What the runtime asks after an edit tool call that changed files. */
export interface EditFeedbackCall {
  toolCallId: string;
  toolName: string;
  runId: string;
  changes: readonly FileChange[];
  signal: AbortSignal;
}

/**
 * The edit-feedback sessions of one agent (`CairnPlugin.editFeedback`, e.g. language-server
 * diagnostics): opened when the agent is created or resumed, so slow starts happen in the
 * background, and closed with the agent. After an edit each session is given a bounded time; a
 * late or failing one adds a notice saying its feedback is unavailable, so a run never waits long
 * and the model never reads a missing answer as "no problems".
 */
export class AgentEditFeedback {
  private constructor(private readonly sessions: Array<{ plugin: string; session: EditFeedbackSession }>) {}

  static open(registry: Registry, workspace: { cwd: string; agentId: string; options: AgentOptions }): AgentEditFeedback {
    const sessions: Array<{ plugin: string; session: EditFeedbackSession }> = [];
    for (const plugin of registry.plugins) {
      if (!plugin.editFeedback) continue;
      try {
        const session = plugin.editFeedback.open({
          cwd: workspace.cwd,
          agentId: workspace.agentId,
          settings: workspace.options.toolSettings ?? {},
          env: workspace.options.env ?? process.env,
        });
        if (session) sessions.push({ plugin: plugin.name, session });
      } catch (error) {
        // Bad settings are the caller's to fix; any other failure only costs the feedback, never the agent.
        if (ConfigurationError.isInstance(error)) throw error;
      }
    }
    return new AgentEditFeedback(sessions);
  }

  get active(): boolean {
    return this.sessions.length > 0;
  }

  /** The sessions' texts for one edit, joined; undefined when none has anything to say. */
  async afterEdit(call: EditFeedbackCall): Promise<string | undefined> {
    if (this.sessions.length === 0 || call.changes.length === 0) return undefined;
    const texts = await Promise.all(this.sessions.map(({ session }) => boundedFeedback(session, call)));
    const shown = texts.filter((text): text is string => typeof text === 'string' && text.trim() !== '');
    return shown.length ? shown.join('\n\n') : undefined;
  }

  async close(): Promise<void> {
    await Promise.all(this.sessions.map(({ session }) => session.close().catch(() => undefined)));
    this.sessions.length = 0;
  }
}

async function boundedFeedback(session: EditFeedbackSession, call: EditFeedbackCall): Promise<string | undefined> {
  const timeoutMs = session.timeoutMs ?? defaultEditFeedbackTimeoutMs;
  const label = session.label ?? 'edit feedback';
  const budget = new AbortController();
  const signal = AbortSignal.any([call.signal, budget.signal]);
  const lateText = `${label} unavailable: no answer within ${formatSeconds(timeoutMs)}.`;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      resolve(lateText);
      // After the resolve: a provider that rejects on the abort must not replace the timeout notice.
      budget.abort();
    }, timeoutMs);
  });
  try {
    return await Promise.race([session.afterEdit({ toolCallId: call.toolCallId, toolName: call.toolName, runId: call.runId, changes: call.changes, signal }), late]);
  } catch (error) {
    if (budget.signal.aborted) return lateText;
    return `${label} unavailable: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    clearTimeout(timer);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
