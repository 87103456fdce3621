const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `argv` as one POSIX shell command line: every word that needs it in single quotes. */
export function shellCommandLine(argv: readonly string[]): string {
  return argv.map((word) => (word !== '' && plainWord.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`)).join(' ');
}
