const brand = Symbol.for('cairn.error.CairnError');

export interface CairnErrorOptions {
  code?: string;
  isRetryable?: boolean;
  status?: number;
  requestId?: string;
  operation?: string;
  endpoint?: string;
  cause?: unknown;
}

/**
 * The base of every Cairn error (`CairnSdkError`, the reference SDK's name; `CairnError` and
 * `CairnAgentError` are aliases of the same class). Each subclass carries a `Symbol.for` brand and a static
 * `isInstance`, so checks work across two installed copies of a package (where `instanceof` fails).
 */
export class CairnSdkError extends Error {
  readonly [brand] = true;
  readonly code: string;
  readonly isRetryable: boolean;
  readonly status?: number;
  readonly requestId?: string;
  readonly operation?: string;
  readonly endpoint?: string;
  declare readonly cause?: unknown;

  constructor(message: string, options: CairnErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CairnSdkError';
    this.code = options.code ?? 'cairn_error';
    this.isRetryable = options.isRetryable ?? false;
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId !== undefined) this.requestId = options.requestId;
    if (options.operation !== undefined) this.operation = options.operation;
    if (options.endpoint !== undefined) this.endpoint = options.endpoint;
  }

  static isInstance(value: unknown): value is CairnSdkError {
    return hasBrand(value, brand);
  }

  toJSON(): { name: string; message: string; code: string; status?: number; requestId?: string } {
    return {
      name: this.name,
      message: this.message,
      code: this.code,
      ...(this.status === undefined ? {} : { status: this.status }),
      ...(this.requestId === undefined ? {} : { requestId: this.requestId }),
    };
  }
}

export function hasBrand(value: unknown, symbol: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[symbol] === true;
}

/** The name Cairn used before the reference SDK's `CairnSdkError`; the same class. */
export const CairnError = CairnSdkError;
export type CairnError = CairnSdkError;
/** The reference SDK's backwards-compatible alias (`CursorAgentError`); the same class. */
export const CairnAgentError = CairnSdkError;
export type CairnAgentError = CairnSdkError;
