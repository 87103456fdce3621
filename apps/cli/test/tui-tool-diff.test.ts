import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ChatCompletionsServer, startChatCompletionsServer } from '@cairn/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, openChat, screenshotPaths, waitForIdle } from './pty/cairn-terminal.js';
import { isFirstStep, toolResultsOfTurn } from './pty/model-requests.js';
import { saveScreenshot } from './pty/screenshot.js';
import { useBuiltCli } from './pty/use-cli.js';

const cli = useBuiltCli('tool-diff');
let server: ChatCompletionsServer;

const edit = { path: 'src/answer.ts', old_string: '  return 41;', new_string: '  // The spec says 42.\n  return 42;' };
const sketch = { path: 'src/answer.ts', instructions: 'I change the return value.', code_edit: 'export function answer(): number {\n  return 42;\n}\n' };

beforeAll(async () => {
  server = await startChatCompletionsServer((body) => {
    if (!isFirstStep(body)) return { text: 'Fixed: `answer()` now returns 42.' };
    // "with a sketch": edit_file, whose diff is known only after the tool merged the sketch.
    const call = JSON.stringify(body.messages).includes('with a sketch') ? { name: 'edit_file', args: sketch } : { name: 'search_replace', args: edit };
    return { text: 'I will fix the return value.', toolCalls: [call] };
  });
});

afterAll(async () => {
  await server?.close();
});

describe('cairn chat in a terminal: a tool call', () => {
  it('shows an edit as a compact tool line with a coloured diff, and the file is changed', async () => {
    const { world, file, session } = await askForTheEdit('Make answer() return 42');
    try {
      const screen = session.screen();
      expect(screen.some((line) => line.includes('search_replace') && line.includes('src/answer.ts'))).toBe(true);
      const removed = screen.find((line) => /^\s*-\s+return 41;/.test(line));
      const added = screen.find((line) => /^\s*\+\s+return 42;/.test(line));
      expect(removed).toBeDefined();
      expect(added).toBeDefined();
      // Removed lines are drawn red and added lines green (ANSI 1/9 and 2/10, or any red/green RGB).
      expect(colourOfLine(session.terminal, screen.indexOf(removed!))).toBe('red');
      expect(colourOfLine(session.terminal, screen.indexOf(added!))).toBe('green');
      expect(await readFile(file, 'utf8')).toBe('export function answer(): number {\n  // The spec says 42.\n  return 42;\n}\n');
      // The edit was made without a question: edits inside the workspace are allowed.
      expect(session.history()).not.toContain('Allow this call?');
      expect(toolResultsOfTurn(server.requests.at(-1) ?? {}).join('\n')).not.toMatch(/denied/i);
      await saveScreenshot(session.terminal, 'tool-call-diff', { replace: screenshotPaths(world) });
    } finally {
      await session.dispose();
    }
  }, 120_000);

  it("shows edit_file's real change (the merged sketch), not the sketch as added lines", async () => {
    const { file, session } = await askForTheEdit('Make answer() return 42 with a sketch');
    try {
      const screen = session.screen();
      expect(screen.some((line) => line.includes('edit_file') && line.includes('src/answer.ts'))).toBe(true);
      expect(screen.find((line) => /^\s*-\s+return 41;/.test(line))).toBeDefined();
      expect(screen.find((line) => /^\s*\+\s+return 42;/.test(line))).toBeDefined();
      // The unchanged first line is context, not an added line as the sketch alone would show it.
      expect(screen.some((line) => /^\s*\+\s*export function answer/.test(line))).toBe(false);
      expect(await readFile(file, 'utf8')).toBe('export function answer(): number {\n  return 42;\n}\n');
    } finally {
      await session.dispose();
    }
  }, 120_000);
});

/** A workspace whose src/answer.ts returns 41, a chat on it, and `prompt` sent and answered. */
async function askForTheEdit(prompt: string) {
  const world = await createWorld();
  await mkdir(join(world.workspace, 'src'));
  const file = join(world.workspace, 'src/answer.ts');
  await writeFile(file, 'export function answer(): number {\n  return 41;\n}\n');
  const session = await openChat({ bin: cli().bin, world, baseUrl: server.url });
  try {
    await session.type(prompt);
    await session.press('enter');
    await session.waitForText('now returns 42');
    await waitForIdle(session);
  } catch (error) {
    await session.dispose();
    throw error;
  }
  return { world, file, session };
}

/** The colour family of the first non-blank cell of a screen row. */
function colourOfLine(terminal: import('@xterm/headless').Terminal, row: number): 'red' | 'green' | 'other' {
  const buffer = terminal.buffer.active;
  const line = buffer.getLine(buffer.viewportY + row);
  for (let column = 0; line && column < terminal.cols; column++) {
    const cell = line.getCell(column);
    if (!cell?.getChars().trim()) continue;
    if (cell.isFgPalette()) return [1, 9].includes(cell.getFgColor()) ? 'red' : [2, 10].includes(cell.getFgColor()) ? 'green' : 'other';
    if (cell.isFgRGB()) {
      const colour = cell.getFgColor();
      const [red, green] = [(colour >> 16) & 255, (colour >> 8) & 255];
      return red > green + 40 ? 'red' : green > red + 40 ? 'green' : 'other';
    }
    return 'other';
  }
  return 'other';
}
