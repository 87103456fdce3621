// Helpers for tests that need a real PostgreSQL (this package's, the workers', the CLI's). vitest
// is an optional peer: only this subpath imports it.
import { describe } from 'vitest';
import { postgresTestTarget, skipMessage } from './test-env.js';

export { type FreshDatabase, type FreshSchema, freshDatabase, freshSchema } from './fresh.js';
export { postgresTestUrl } from './test-env.js';

// Once per test process (each test file's worker when vitest isolates files): the flag is kept on
// globalThis so files sharing a process (isolate: false) print it once between them.
const announced = Symbol.for('@cairn/store-postgres/testing: skip announced');

/**
 * `describe` for tests that need Postgres; `fn` gets the server URL. Without CAIRN_TEST_POSTGRES_URL
 * the suite is skipped with one console line (its body still runs, with an empty URL, to register
 * the skipped tests: use the URL inside hooks and tests only). On CI (CI set) a missing URL throws
 * instead, so CI never passes without having run them.
 */
export function describePostgres(name: string, fn: (url: string) => void): void {
  const url = postgresTestTarget();
  if (url !== undefined) {
    describe(name, () => fn(url));
    return;
  }
  const scope = globalThis as { [announced]?: boolean };
  if (!scope[announced]) {
    scope[announced] = true;
    console.log(skipMessage);
  }
  describe.skip(name, () => fn(''));
}
