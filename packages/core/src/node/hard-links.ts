/**
 * Whether the contents of a file with `nlink` names may be shown to the model, judged on its
 * canonical workspace-relative path. A hard link's other names cannot be listed, so one of them
 * may be an outside file (`ln ~/.ssh/id_rsa notes.txt`, made on the host: the sandbox cannot make
 * one, a link across its bind mount fails with EXDEV, and git cannot check one out). Package
 * managers do install hard links, into `node_modules` only: pnpm links every file of its virtual
 * store (`node_modules/.pnpm`) to its content-addressed store, npm, yarn and bun can do the same.
 * Those are package files, and agents need to read dependency sources, so hard links below a
 * `node_modules` folder are readable and every other one is refused. Writes to any hard link stay
 * refused (they would change the other names too).
 */
export function hardLinkReadRefusal(relativePath: string, nlink: number): string | undefined {
  if (nlink <= 1) return undefined;
  if (relativePath.split('/').some((segment) => segment.toLowerCase() === 'node_modules')) return undefined;
  return `it is a hard link shared with ${nlink - 1} other path(s), possibly outside the workspace`;
}
