// Helpers for tests that need a real PostgreSQL (this package's, the workers', the CLI's). vitest
// is an optional peer: only this subpath imports it.
import { describe } from 'vitest';

export { freshDatabase, freshSchema, type FreshDatabase, type FreshSchema } from './fresh.js';

const variable = 'CAIRN_TEST_POSTGRES_URL';

/** The test server's URL from CAIRN_TEST_POSTGRES_URL, or undefined when it is not set. */
export function postgresTestUrl(): string | undefined {
  const url = process.env[variable]?.trim();
  return url ? url : undefined;
}

const onCi = () => {
  const ci = process.env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
};

let announced = false;

/**
 * `describe` for tests that need Postgres. `fn` gets the server URL. Without CAIRN_TEST_POSTGRES_URL
 * the suite is skipped with one console line (its body still runs to register the skipped tests,
 * with an empty URL: use the URL inside hooks and tests only); on CI (CI set) a missing URL throws
 * instead, so CI never passes without having run them.
 */
export function describePostgres(name: string, fn: (url: string) => void): void {
  const url = postgresTestUrl();
  if (url !== undefined) {
    describe(name, () => fn(url));
    return;
  }
  if (onCi()) {
    throw new Error(`${variable} is not set, and CI is: the Postgres tests must run on CI. Run scripts/start-postgres.sh and export the URL it prints as ${variable}.`);
  }
  if (!announced) {
    announced = true;
    console.log(`Postgres tests skipped: set ${variable}=postgres://… (scripts/start-postgres.sh starts Debian's PostgreSQL and prints it)`);
  }
  describe.skip(name, () => fn(''));
}
