import { CairnError } from '@cairn/core';
import { describeLocation, type StoreLocation } from './errors.js';

const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

const codeOf = (error: unknown) => String((error as { code?: unknown } | null)?.code ?? '');
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * What opening the store failed on, said so that the reader knows what to do: start the server,
 * fix the URL, create the database, grant a right. Other errors (a CairnError from the migration
 * check, say) pass through unchanged.
 */
export function openError(error: unknown, at: StoreLocation): unknown {
  if (CairnError.isInstance(error)) return error;
  const code = codeOf(error);
  const where = `${at.host}:${at.port}`;
  if (unreachableCodes.has(code) || /timeout|terminated unexpectedly/i.test(messageOf(error))) {
    return new CairnError(
      `Cannot reach PostgreSQL at ${where} (${code || messageOf(error)}). Start PostgreSQL there, or fix the host and port in the connection URL.`,
      { code: 'store_unreachable', isRetryable: true, cause: error },
    );
  }
  if (code === '28P01' || code === '28000') {
    return new CairnError(`PostgreSQL at ${where} refused the login: ${messageOf(error)}. Fix the user and password in the connection URL.`, {
      code: 'store_auth_failed',
      cause: error,
    });
  }
  if (code === '3D000') {
    return new CairnError(
      `PostgreSQL at ${where} has no database "${at.database}". Create it (createdb ${at.database}) or fix the database name in the connection URL.`,
      { code: 'store_unreachable', cause: error },
    );
  }
  if (code === '42501') {
    return new CairnError(
      `The Postgres role may not create the Cairn tables in ${describeLocation(at)}: ${messageOf(error)}. ` +
        `Grant it CREATE on the database, or create schema "${at.schema}" owned by it.`,
      { code: 'store_permission_denied', cause: error },
    );
  }
  return error;
}
