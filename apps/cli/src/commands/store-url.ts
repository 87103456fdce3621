/** Why a `--store` value is not a PostgreSQL URL, or undefined when it is one (docs/background-agents.md). */
export function postgresUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `use a PostgreSQL URL such as postgres://user:password@host:5432/database (got "${value}")`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    return `use a postgres:// or postgresql:// URL (got ${url.protocol}//…): background agents need a store every worker shares`;
  }
  return undefined;
}
