import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '../../..');
const chatUi = join(repoRoot, 'packages/chat-ui');
const built = [join(chatUi, 'dist/app/index.html'), join(chatUi, 'dist/app/assets/main.js')];

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * `cairn serve` hosts `packages/chat-ui/dist/app`: build it when it is missing or older than the
 * sources, so the tests always drive the page of the current code.
 */
export function ensureChatPageBuilt(): void {
  const sources = Math.max(newestMtime(join(chatUi, 'src')), newestMtime(join(chatUi, 'app')));
  if (built.every((file) => existsSync(file) && statSync(file).mtimeMs >= sources)) return;
  const result = spawnSync('pnpm', ['--filter', '@cairn/chat-ui', 'build'], { cwd: repoRoot, encoding: 'utf8' });
  if (result.status !== 0 || !built.every((file) => existsSync(file))) throw new Error(`pnpm --filter @cairn/chat-ui build failed:\n${result.stdout}\n${result.stderr}`);
}
