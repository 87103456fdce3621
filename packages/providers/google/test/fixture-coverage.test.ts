import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listProviderFixtures } from '@cairn/core/testing';
import { expect, it } from 'vitest';

it('every recorded google fixture is replayed by a test in this folder', () => {
  const folder = dirname(fileURLToPath(import.meta.url));
  const sources = readdirSync(folder)
    .filter((file) => file.endsWith('.test.ts') && !file.startsWith('fixture-coverage'))
    .map((file) => readFileSync(join(folder, file), 'utf8'))
    .join('\n');
  const missing = listProviderFixtures('google').filter((file) => !sources.includes(file.split('/')[1]!));
  expect(missing).toEqual([]);
});
