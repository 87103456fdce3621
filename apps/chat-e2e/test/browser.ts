import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium, never a downloaded one. CHROMIUM_PATH points elsewhere when needed. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Launch headless chromium; a missing browser is a failure that says how to get it, not a skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`chromium was not found at ${chromiumPath}. These browser tests use Debian's chromium: install it with \`apt-get install -y chromium\` (CI installs it), or set CHROMIUM_PATH. Do not download a browser with playwright.`);
  }
  return chromium.launch({ executablePath: chromiumPath, args });
}
