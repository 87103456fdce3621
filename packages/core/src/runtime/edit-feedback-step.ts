import type { RunScope } from './run-scope.js';
import type { ToolCallOutcome } from './tool-runner.js';

/**
 * After a tool call that changed files: the agent's edit feedback (diagnostics the edit introduced)
 * appended to the result the model reads. Failed calls and calls that changed nothing are left as
 * they are; the feedback's own time bound (agent-edit-feedback.ts) keeps the run from waiting long.
 */
export async function withEditFeedback(scope: RunScope, outcome: ToolCallOutcome, signal: AbortSignal): Promise<ToolCallOutcome> {
  const feedback = scope.plan.editFeedback;
  const changes = scope.changesOfCall.get(outcome.toolCallId);
  scope.changesOfCall.delete(outcome.toolCallId);
  if (!feedback || !changes?.length || outcome.isError) return outcome;
  const text = await feedback.afterEdit({ toolCallId: outcome.toolCallId, toolName: outcome.toolName, runId: scope.plan.runId, changes, signal });
  return text ? appendText(outcome, text) : outcome;
}

function appendText(outcome: ToolCallOutcome, text: string): ToolCallOutcome {
  const output = outcome.output;
  const next: ToolCallOutcome['output'] =
    output.type === 'content'
      ? { ...output, value: [...output.value, { type: 'text', text }] }
      : output.type === 'text'
        ? { ...output, value: `${output.value}\n\n${text}` }
        : { type: 'text', value: `${JSON.stringify(output.value)}\n\n${text}` };
  return { ...outcome, output: next, text: `${outcome.text}\n\n${text}` };
}
