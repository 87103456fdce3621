/**
 * An error answer of the Cairn server (`{"error":{"code","message",...}}`), or a request that never
 * got one (`status` 0, code `network_error`). `details` keeps the body's other fields: `issues` of
 * an `invalid_request`, the busy `runId` of `agent_busy`, the winning `approval` of a `conflict`.
 */
export class CairnApiError extends Error {
  override readonly name = 'CairnApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  static isInstance(value: unknown): value is CairnApiError {
    return value instanceof CairnApiError;
  }
}

/** The error a non-2xx response stands for, read from its body when the body is the server's JSON. */
export async function apiErrorOf(response: Response): Promise<CairnApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } & Record<string, unknown> };
    if (body.error && typeof body.error.code === 'string') {
      const { code, message, ...details } = body.error;
      return new CairnApiError(response.status, code, typeof message === 'string' ? message : code, details);
    }
  } catch {
    // Not JSON (a proxy's page, an empty body): fall through to a generic error.
  }
  return new CairnApiError(response.status, 'http_error', `The server answered ${response.status} ${response.statusText}`.trim(), text ? { body: text.slice(0, 500) } : {});
}

/** A fetch that threw (offline, refused, CORS) as an API error, so callers handle one error type. */
export function networkError(error: unknown): CairnApiError {
  if (error instanceof CairnApiError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new CairnApiError(0, 'network_error', `The server could not be reached: ${message}`);
}
