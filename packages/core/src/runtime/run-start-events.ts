import type { InteractionUpdate, RunEvent, SDKMessage } from '../spec/events/v1/index.js';
import type { ModelSelection } from '../spec/provider/v1/index.js';

/** An SDK message event of one run (the agent and run ids stamped on). */
export const runMessage = (agentId: string, runId: string) => (body: Record<string, unknown>): RunEvent => ({
  kind: 'message',
  message: { ...body, agent_id: agentId, run_id: runId } as SDKMessage,
});

export interface RunStart {
  message: (body: Record<string, unknown>) => RunEvent;
  /** The model this run uses: the concrete id, with the selection's params. */
  model: ModelSelection;
  toolNames: string[];
  mode: string;
  cwd: string;
  userText: string;
  /** Set when this run starts in another mode than the conversation was in. */
  modeChange?: { from: string; source: 'user' | 'plan-approval' };
  /** The plan approval's own update (todos loaded), when the run approves a plan. */
  approvalUpdate?: InteractionUpdate;
  /** Things the user should know about this run's options (a documented fallback taken). */
  notices?: string[];
}

/** The events every run opens with: init, running, the user's message, and a mode change if any. */
export function runStartEvents(start: RunStart): RunEvent[] {
  const { message, modeChange } = start;
  return [
    message({ type: 'system', subtype: 'init', model: start.model, tools: start.toolNames, mode: start.mode, cwd: start.cwd }),
    message({ type: 'status', status: 'RUNNING', mode: start.mode }),
    ...(start.notices ?? []).map((notice) => message({ type: 'status', status: 'RUNNING', mode: start.mode, message: notice })),
    message({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: start.userText }] } }),
    { kind: 'update', update: { type: 'user-message-appended', userMessage: { text: start.userText } } },
    ...(modeChange
      ? [
          { kind: 'update' as const, update: { type: 'mode-changed' as const, from: modeChange.from, to: start.mode, source: modeChange.source } },
          message({ type: 'status', status: 'RUNNING', phase: 'mode-changed', mode: start.mode, message: `${modeChange.from} -> ${start.mode}` }),
        ]
      : []),
    ...(start.approvalUpdate ? [{ kind: 'update' as const, update: start.approvalUpdate }] : []),
  ];
}
