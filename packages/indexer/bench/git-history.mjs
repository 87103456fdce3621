// A corpus from this repository's own history: the tree at a pinned commit is indexed, and every
// earlier commit is a query (its subject as written, `area:` prefix included) whose answers
// are the files it touched that still exist in that tree. The pinned commit keeps the corpus the
// same from run to run, whatever has been committed since; a checkout without it (a shallow CI
// clone, a source tarball) skips the corpus and says why.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgedRole } from './roles.mjs';

// main just before issue 19 (search that prefers source) started: 326 commits.
export const pinnedCommit = '12b9f29';
const maxTouchedFiles = 20;
/** Release notes repeat commit subjects word for word: not indexed and never an answer. */
const excluded = (path) => path.startsWith('.changeset/') || path === 'pnpm-lock.yaml';

const git = (cwd, args, options = {}) => execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });

export function repositoryRoot() {
  try {
    return git(dirname(fileURLToPath(import.meta.url)), ['rev-parse', '--show-toplevel']).trim();
  } catch {
    return undefined;
  }
}

/** Why the corpus cannot be built here, or undefined when it can. */
export function unavailableReason(commit = pinnedCommit) {
  const root = repositoryRoot();
  if (!root) return 'not a git checkout';
  try {
    git(root, ['cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return undefined;
  } catch {
    return `commit ${commit} is not in this checkout (a shallow clone? run git fetch --unshallow)`;
  }
}

function listFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listFiles(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}


/** Commits before the pinned one, each with its subject, touched files and the lines it added per file. */
function commits(root, commit) {
  const log = git(root, ['log', '--no-merges', '-p', '-U0', '--no-color', '--no-renames', '--format=%x01%H%x00%s', commit]);
  const result = [];
  for (const entry of log.split('\x01').slice(1)) {
    const [head, ...body] = entry.split('\n');
    const [hash, subject] = head.split('\x00');
    const added = new Map();
    let current;
    for (const line of body) {
      if (line.startsWith('diff --git ')) current = undefined;
      else if (line.startsWith('+++ ')) {
        current = line === '+++ /dev/null' ? undefined : line.slice('+++ b/'.length);
        if (current && !added.has(current)) added.set(current, []);
      } else if (current && line.startsWith('+')) added.get(current).push(line.slice(1));
      else if (line.startsWith('--- a/')) {
        const path = line.slice('--- a/'.length);
        if (!added.has(path)) added.set(path, []);
      }
    }
    result.push({ hash, subject, added });
  }
  return result;
}

/**
 * Extract the pinned tree into a temp workspace and build the queries. Chunk-level answers are the
 * lines the commit added that are still in the file verbatim, unique there and longer than 15
 * characters (so `}` or `return result;` do not count); a query whose commit left none is left
 * out of the chunk-level figures only.
 */
export function buildHistoryCorpus(commit = pinnedCommit) {
  const root = repositoryRoot();
  const base = mkdtempSync(join(tmpdir(), 'cairn-bench-'));
  const workspace = join(base, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const archive = join(base, 'tree.tar');
  git(root, ['archive', '--format=tar', '-o', archive, commit]);
  execFileSync('tar', ['-xf', archive, '-C', workspace]);
  rmSync(archive);
  rmSync(join(workspace, '.changeset'), { recursive: true, force: true });
  rmSync(join(workspace, 'pnpm-lock.yaml'), { force: true });
  const texts = new Map();
  let lines = 0;
  let bytes = 0;
  for (const path of listFiles(workspace)) {
    const text = readFileSync(path, 'utf8');
    texts.set(relative(workspace, path).split('\\').join('/'), text);
    lines += text.split('\n').length;
    bytes += Buffer.byteLength(text);
  }
  const queries = [];
  const seen = new Set();
  for (const { hash, subject, added } of commits(root, commit)) {
    const touched = [...added.keys()].filter((path) => !excluded(path));
    if (touched.length === 0 || touched.length > maxTouchedFiles) continue;
    // The subject as written, its `docs:` / `cli tests:` area included: it is how the author said what changed.
    const query = subject.trim();
    if (query.split(' ').filter((word) => /[a-z]{3,}/i.test(word)).length < 3 || seen.has(query)) continue;
    const files = touched.filter((path) => texts.has(path));
    if (files.length === 0) continue;
    seen.add(query);
    const targets = files.map((path) => ({ path, lines: survivingLines(texts.get(path), added.get(path)) }));
    queries.push({ query: query.slice(0, 300), name: hash.slice(0, 7), targets });
  }
  const corpus = { base, root: workspace, home: join(base, 'home'), files: texts.size, lines, bytes, commit };
  const roles = new Map([...texts].map(([path, text]) => [path, judgedRole(path, text)]));
  return { corpus, texts, roles, queries };
}

function survivingLines(text, addedLines) {
  const lines = text.split('\n');
  const positions = new Map();
  lines.forEach((line, index) => {
    const key = line.trim();
    if (key.length > 15) positions.set(key, positions.has(key) ? -1 : index + 1);
  });
  const found = new Set();
  for (const line of addedLines) {
    const position = positions.get(line.trim());
    if (position && position > 0) found.add(position);
  }
  return [...found];
}
