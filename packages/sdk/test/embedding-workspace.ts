import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Synonyms the fake embedding server maps to one word: "automobile" finds car code by vectors only. */
export const carConcepts = { automobile: 'car', vehicle: 'car', motor: 'engine' };

/**
 * A function of about 700 characters: over the chunker's merge threshold, so each one is its own
 * chunk and an edit of one changes exactly one chunk.
 */
export function bigFunction(name: string, topic: string): string {
  const lines = Array.from({ length: 12 }, (_, line) => `  const step${line} = '${topic} step ${line} of ${name}'.length + ${line};`);
  return `export function ${name}(input: number): number {\n${lines.join('\n')}\n  return input + step0 + step11;\n}\n`;
}

export async function makeWorkspace(files: Record<string, string>): Promise<{ cwd: string; home: string }> {
  const base = await mkdtemp(join(tmpdir(), 'cairn-embed-'));
  const cwd = join(base, 'proj');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(cwd, path)), { recursive: true });
    await writeFile(join(cwd, path), text);
  }
  return { cwd, home: join(base, 'home') };
}

/** Three topics; only src/car.ts is about cars, and no file contains the word "automobile". */
export const smallTree: Record<string, string> = {
  'src/car.ts': bigFunction('startCarEngine', 'turn the car key and the engine ignition starts the car'),
  'src/parser.ts': bigFunction('parseConfigFile', 'read the json config text') + '\n' + bigFunction('validateConfig', 'check config fields'),
  'src/render.ts': bigFunction('renderButton', 'draw a button label on the screen'),
};

/** A made-up word per number (`0` -> `zab`), so every function has a name no other one shares. */
export function wordOf(number: number): string {
  const letters = 'bcdfghjklmnpqrstvwxz';
  let word = '';
  for (let rest = number; word.length < 3; rest = Math.floor(rest / letters.length)) word += letters[rest % letters.length];
  return `zo${word}`;
}

/** `files × perFile` distinct big functions (more chunks than one embedding batch holds). */
export function manyFunctions(files: number, perFile: number): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let file = 0; file < files; file++) {
    tree[`src/module${file}.ts`] = Array.from({ length: perFile }, (_, index) => {
      const word = wordOf(file * perFile + index);
      return bigFunction(word, `${word} work item queue`);
    }).join('\n');
  }
  return tree;
}
