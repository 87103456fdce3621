export const urlVariable = 'CAIRN_TEST_POSTGRES_URL';

export const skipMessage = `Postgres tests skipped: set ${urlVariable}=postgres://… (scripts/start-postgres.sh starts Debian's PostgreSQL and prints it)`;

const isCi = (env: NodeJS.ProcessEnv) => {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
};

/** The test server's URL from CAIRN_TEST_POSTGRES_URL, or undefined when it is not set. */
export function postgresTestUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[urlVariable]?.trim();
  return url ? url : undefined;
}

/**
 * The URL the Postgres tests run against, or undefined to skip them. On CI (CI set) a missing URL
 * throws instead: CI must never pass without having run them.
 */
export function postgresTestTarget(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = postgresTestUrl(env);
  if (url === undefined && isCi(env)) {
    throw new Error(`${urlVariable} is not set, and CI is: the Postgres tests must run on CI. Run scripts/start-postgres.sh and export the URL it prints as ${urlVariable}.`);
  }
  return url;
}
