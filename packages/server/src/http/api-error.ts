import { AgentBusyError, CairnError, ConfigurationError } from '@cairn/sdk';
import { HTTPException } from 'hono/http-exception';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 500;

/** An error a route answers with: the HTTP status, a stable code, and a message that says what to do. */
export class ApiError extends Error {
  constructor(
    readonly status: ErrorStatus,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} was not found (or its workspace is outside this server's roots).`);

/** Any thrown value as the `{ error: { code, message } }` body and status the API answers with. */
export function errorBody(error: unknown): { status: ErrorStatus; body: { error: Record<string, unknown> } } {
  if (error instanceof ApiError) return { status: error.status, body: { error: { code: error.code, message: error.message, ...error.details } } };
  // Hono's own refusals (a body that is not JSON): a 400 in the API's shape.
  if (error instanceof HTTPException && error.status === 400) return { status: 400, body: { error: { code: 'invalid_request', message: `${error.message}: send a JSON body with content-type application/json.` } } };
  if (AgentBusyError.isInstance(error)) {
    const message = `Agent ${error.agentId} is busy with run ${error.activeRunId ?? '(unknown)'} in another process: wait for that run to end, or cancel it with POST /v1/runs/{runId}/cancel.`;
    return { status: 409, body: { error: { code: 'agent_busy', message, ...(error.activeRunId ? { runId: error.activeRunId } : {}) } } };
  }
  if (ConfigurationError.isInstance(error)) return { status: 400, body: { error: { code: 'configuration_error', message: error.message } } };
  if (CairnError.isInstance(error)) return { status: 400, body: { error: { code: error.code, message: error.message } } };
  return { status: 500, body: { error: { code: 'internal', message: 'The server failed to answer this request; its log says why.' } } };
}
