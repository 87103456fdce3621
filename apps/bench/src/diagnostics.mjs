// Diagnostics after edits (issue 19): the typescript-language-server sessions of @cairn/tools-lints
// (built dist) on a generated TypeScript project, measured as an agent meets them:
// - cold: from opening a session (a new server process) to the diagnostics of a first edit;
// - warm: a session on a root whose server is already warm, to the diagnostics of its first edit;
// - per edit: an edit that alternately breaks and fixes one file, on the warm server (p50, p95);
// - memory: resident memory of the server's process group (server + tsserver), warm and after the edits;
// - baseline: one `tsc --noEmit -p` of the same project with the same TypeScript, the cost read_lints
//   pays without the warm server; ratios to it are reported.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { editDiagnosticsProvider, languageServersWarm } from '@cairn/tools-lints';
import { median, percentile, round } from './stats.mjs';

const files = Number(process.env.BENCH_DIAGNOSTICS_FILES ?? 300);
const edits = Number(process.env.BENCH_DIAGNOSTICS_EDITS ?? 30);
const coldRounds = Number(process.env.BENCH_DIAGNOSTICS_COLD ?? 3);

/** A strict project of `files` modules of ~40 lines, each importing the one before. */
function project() {
  const root = mkdtempSync(join(tmpdir(), 'cairn-bench-diagnostics-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext' }, include: ['src'] }));
  for (let index = 0; index < files; index++) {
    const previous = index === 0 ? '' : `import { total${index - 1} } from './m${index - 1}.js';\n`;
    const body = Array.from({ length: 12 }, (_, line) => `  const v${line}: number = items[${line}] ?? ${line};\n  sum += v${line};`).join('\n');
    writeFileSync(join(root, 'src', `m${index}.ts`), `${previous}export interface Item${index} { id: number; name: string }\nexport function total${index}(items: number[]): number {\n  let sum = ${index === 0 ? 0 : `total${index - 1}(items)`};\n${body}\n  return sum;\n}\n`);
  }
  return root;
}

const encode = (text) => new TextEncoder().encode(text);

async function timedEdit(session, root, path, before, after) {
  writeFileSync(join(root, path), after);
  const started = performance.now();
  const text = await session.afterEdit({ toolCallId: 'bench', toolName: 'write', runId: 'bench', changes: [{ path: join(root, path), before: before === null ? null : encode(before), after: encode(after) }], signal: new AbortController().signal });
  const ms = performance.now() - started;
  if (!text || text.includes('unavailable')) throw new Error(`no diagnostics for ${path}: ${text}`);
  return { ms, text };
}

function open(root) {
  return editDiagnosticsProvider.open({ cwd: root, agentId: 'bench', settings: { diagnostics: { timeoutMs: 300_000 } }, env: process.env });
}

/** Resident memory (KiB) of every process in the group `pgid`. */
function groupRssKb(pgid) {
  let total = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return total;
}

const root = project();
const broken = 'export const late: number = "x";\n';
const fixed = 'export const late: number = 1;\n';
try {
  // Baseline: tsc over the same project, with the TypeScript the server uses.
  const tsc = createRequire(import.meta.resolve('@cairn/tools-lints')).resolve('typescript/bin/tsc');
  const tscStarted = performance.now();
  execFileSync(process.execPath, [tsc, '--noEmit', '-p', join(root, 'tsconfig.json')], { stdio: 'pipe' });
  const tscMs = performance.now() - tscStarted;

  const cold = [];
  for (let round_ = 0; round_ < coldRounds; round_++) {
    const started = performance.now();
    const session = open(root);
    const path = `src/cold${round_}.ts`;
    const { text } = await timedEdit(session, root, path, null, broken);
    cold.push(performance.now() - started);
    if (!text.includes('TS2322')) throw new Error(`cold edit missed the error: ${text}`);
    await session.close();
    rmSync(join(root, path));
  }

  const holder = open(root);
  const [status] = await languageServersWarm(root);
  const warmRssKb = groupRssKb(status.pid);
  const warmSession = open(root);
  const warm = await timedEdit(warmSession, root, 'src/warm.ts', null, broken);

  const perEdit = [];
  let current = broken;
  for (let index = 0; index < edits; index++) {
    const next = current === broken ? fixed : broken;
    const { ms, text } = await timedEdit(warmSession, root, 'src/warm.ts', current, next);
    if (next === broken ? !text.includes('TS2322') : !text.includes('clean')) throw new Error(`edit ${index}: unexpected ${text}`);
    perEdit.push(ms);
    current = next;
  }
  // An edit in the middle of the import chain: the server re-checks a file with many dependents loaded.
  const middle = `src/m${Math.floor(files / 2)}.ts`;
  const middleText = readFileSync(join(root, middle), 'utf8');
  const chain = await timedEdit(warmSession, root, middle, middleText, `${middleText}export const extra: string = 1;\n`);
  const afterRssKb = groupRssKb(status.pid);
  await warmSession.close();
  await holder.close();

  const p50 = median(perEdit);
  process.stdout.write(`${JSON.stringify({
    corpus: { files, lines: files * 30 },
    server: 'typescript-language-server 5.3.0, TypeScript 5.9.3 (Cairn\'s)',
    coldFirstDiagnosticsMs: { median: round(median(cold), 0), runs: cold.map((ms) => round(ms, 0)) },
    warmFirstDiagnosticsMs: round(warm.ms, 1),
    perEditMs: { p50: round(p50, 1), p95: round(percentile(perEdit, 95), 1), edits },
    editInImportChainMs: round(chain.ms, 1),
    serverRssMiB: { warm: round(warmRssKb / 1024, 0), afterEdits: round(afterRssKb / 1024, 0) },
    baseline: { tscNoEmitMs: round(tscMs, 0), perEditVsTsc: round(p50 / tscMs, 3), coldVsTsc: round(median(cold) / tscMs, 2) },
  })}\n`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
