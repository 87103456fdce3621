// Runs every package's tests through turbo, then prints one plain summary line summed over all
// packages (`N passed, N failed, N skipped`), which CI records. Exits non-zero when any test failed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// Every workspace package with a test script, as pnpm sees them (scripts/packages.mjs misses some).
const packages = JSON.parse(execFileSync('pnpm', ['ls', '-r', '--json', '--depth', '-1'], { cwd: root, encoding: 'utf8' }))
  .filter((pkg) => relative(root, pkg.path) !== '' && JSON.parse(readFileSync(join(pkg.path, 'package.json'), 'utf8')).scripts?.test)
  .map((pkg) => ({ name: pkg.name, dir: relative(root, pkg.path) }));
const reports = packages.map((pkg) => join(root, pkg.dir, '.vitest-report.json'));
for (const report of reports) rmSync(report, { force: true });

// Tests never touch the user's ~/.cairn.
const home = process.env.CAIRN_HOME ?? mkdtempSync(join(tmpdir(), 'cairn-test-home-'));
const extra = process.argv.slice(2);
const result = spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', '--concurrency=2', '--continue', ...extra], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CAIRN_TEST_REPORT: '1', CAIRN_HOME: home },
});

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const [index, report] of reports.entries()) {
  if (!existsSync(report)) {
    missing.push(packages[index].name);
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  failed += (json.numFailedTests ?? 0) + filesFailedWithoutTests(json);
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
// A package whose test run crashed before writing its report counts as a failure.
if (missing.length > 0 && result.status !== 0) {
  console.error(`No test report from: ${missing.join(', ')}`);
  failed += missing.length;
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(result.status === 0 && failed === 0 ? 0 : 1);

/** Test files that failed without a failing test (an import error, a crash in a hook): one failure each. */
function filesFailedWithoutTests(json) {
  return (json.testResults ?? []).filter((file) => file.status === 'failed' && !(file.assertionResults ?? []).some((test) => test.status === 'failed')).length;
}
