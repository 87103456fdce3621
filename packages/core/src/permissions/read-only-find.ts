// find's expression is a small language: every primary must be one we know to only test or print.
const primariesWithValue = new Set([
  '-amin', '-anewer', '-atime', '-cmin', '-cnewer', '-ctime', '-fstype', '-gid', '-group', '-ilname', '-iname', '-inum', '-ipath', '-iregex',
  '-iwholename', '-links', '-lname', '-mmin', '-mtime', '-name', '-newer', '-path', '-perm', '-regex', '-samefile', '-size', '-type', '-uid', '-used',
  '-user', '-wholename', '-xtype', '-context', '-maxdepth', '-mindepth', '-regextype', '-printf', '-files0-from',
]);
const primariesWithoutValue = new Set([
  '-depth', '-daystart', '-follow', '-ignore_readdir_race', '-mount', '-noignore_readdir_race', '-noleaf', '-xdev', '-warn', '-nowarn', '-empty',
  '-executable', '-false', '-nogroup', '-nouser', '-readable', '-true', '-writable', '-print', '-print0', '-ls', '-prune', '-quit', '-not', '-a',
  '-and', '-o', '-or', '!', '(', ')', ',', '-help', '--help', '-version', '--version',
]);
const refusedPrimaries: Record<string, string> = {
  '-exec': 'runs a program', '-execdir': 'runs a program', '-ok': 'runs a program', '-okdir': 'runs a program', '-delete': 'deletes files',
  '-fprint': 'writes a file', '-fprint0': 'writes a file', '-fprintf': 'writes a file', '-fls': 'writes a file',
};

export function findVerdict(args: string[]): string | undefined {
  let index = 0;
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  while (index < args.length) {
    const arg = args[index] as string;
    if (arg === '-H' || arg === '-L' || arg === '-P' || /^-O\d$/.test(arg)) index++;
    else if (arg === '-D') index += 2;
    else break;
  }
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    const refused = refusedPrimaries[arg];
    if (refused) return `find ${arg} ${refused}`;
    if (primariesWithValue.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) index++;
    else if (!primariesWithoutValue.has(arg) && (arg.startsWith('-') || arg.startsWith('+'))) return `find ${arg} is not known to be read-only`;
  }
  return undefined;
}
