/** What to install when bubblewrap is missing (kept apart from bubblewrap.ts so naming it loads no sandbox code). */
export const bubblewrapInstallHint = 'install bubblewrap: apt-get install bubblewrap (Debian/Ubuntu) or dnf install bubblewrap (Fedora)';
