#!/usr/bin/env bash
# Start Debian's PostgreSQL for the Postgres store and worker tests, and create the test role and
# database. Prints the connection URL the tests read from CAIRN_TEST_POSTGRES_URL. Exits non-zero
# when the server does not come up, so CI fails instead of skipping the Postgres tests.
set -euo pipefail

if ! command -v pg_lsclusters >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then echo "start-postgres: PostgreSQL is not installed; install Debian's postgresql package." >&2; exit 1; fi
  apt-get update -qq >&2
  apt-get install -y -qq postgresql >&2
fi

# The newest cluster Debian created on install (postinst makes `main` for the installed version).
read -r version cluster port status _ < <(pg_lsclusters --no-header | sort -k1,1n | tail -n 1)
if [ -z "${version:-}" ]; then echo "start-postgres: no PostgreSQL cluster exists; create one with pg_createcluster." >&2; exit 1; fi
if [ "$status" != online ]; then pg_ctlcluster "$version" "$cluster" start >&2; fi

for _ in $(seq 1 50); do
  if su postgres -c "pg_isready -q -p $port"; then break; fi
  sleep 0.2
done
su postgres -c "pg_isready -q -p $port" || { echo "start-postgres: PostgreSQL $version/$cluster did not start; see /var/log/postgresql." >&2; exit 1; }

# A superuser role for the tests: each test file creates and drops its own database.
su postgres -c "psql -q -p $port -v ON_ERROR_STOP=1" <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'cairn') THEN CREATE ROLE cairn LOGIN SUPERUSER PASSWORD 'cairn'; END IF;
END \$\$;
SELECT 'CREATE DATABASE cairn OWNER cairn' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'cairn')\gexec
SQL
echo "postgres://cairn:cairn@127.0.0.1:$port/cairn"
