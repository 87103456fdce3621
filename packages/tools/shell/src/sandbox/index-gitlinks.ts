import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { lastGitConfigValue, parseGitConfig } from '@cairn/core/node';

const gitlinkMode = 0o160000;
const indexSignature = 0x44495243; // "DIRC"
const extendedFlag = 0x4000;

/**
 * The paths the index of `gitDir` lists as gitlinks (submodules, mode 160000). `git status` runs a
 * `git status` inside each of them, so a repository a command creates and adds to the index is run
 * by the next plain `git status` of the superproject, wherever it lies (also under node_modules,
 * which the workspace walk skips). Reads index versions 2 to 4; anything else gives no paths.
 */
export async function indexGitlinks(gitDir: string): Promise<string[]> {
  const path = join(gitDir, 'index');
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) return [];
  const key = `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
  const cached = cache.get(path);
  if (cached?.key === key) return cached.paths;
  const objectFormat = lastGitConfigValue(parseGitConfig(await readFile(join(gitDir, 'config'), 'utf8').catch(() => '')), 'extensions', 'objectformat');
  const paths = parseIndex(await readFile(path), objectFormat === 'sha256' ? 32 : 20);
  cache.set(path, { key, paths });
  return paths;
}

// Indexes change rarely between two commands; big ones take a few milliseconds to read.
const cache = new Map<string, { key: string; paths: string[] }>();

function parseIndex(bytes: Buffer, hashSize: number): string[] {
  if (bytes.length < 12 || bytes.readUInt32BE(0) !== indexSignature) return [];
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return [];
  const count = bytes.readUInt32BE(8);
  const gitlinks: string[] = [];
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let entry = 0; entry < count; entry++) {
    const fixed = 40 + hashSize + 2;
    if (offset + fixed > bytes.length) return gitlinks;
    const mode = bytes.readUInt32BE(offset + 24);
    const flags = bytes.readUInt16BE(offset + 40 + hashSize);
    let cursor = offset + fixed + (version >= 3 && flags & extendedFlag ? 2 : 0);
    let name: Buffer;
    if (version === 4) {
      // Prefix compression: a varint of bytes to drop from the previous name, then the rest.
      let byte = bytes[cursor++] ?? 0;
      let drop = byte & 0x7f;
      while (byte & 0x80) {
        byte = bytes[cursor++] ?? 0;
        drop = ((drop + 1) << 7) | (byte & 0x7f);
      }
      const end = bytes.indexOf(0, cursor);
      if (end < 0) return gitlinks;
      name = Buffer.concat([previous.subarray(0, Math.max(0, previous.length - drop)), bytes.subarray(cursor, end)]);
      offset = end + 1;
    } else {
      const end = bytes.indexOf(0, cursor);
      if (end < 0) return gitlinks;
      name = bytes.subarray(cursor, end);
      // Entries are padded with NULs to a multiple of 8 bytes.
      offset += (end - offset + 8) & ~7;
    }
    previous = name;
    if ((mode & 0o170000) === gitlinkMode) gitlinks.push(name.toString('utf8'));
  }
  return gitlinks;
}
