/** Headless Chromium for the report tests: where it is, how it starts, and a page opened from disk that records what went wrong. */
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

// Debian's Chromium, which .ci/run installs; elsewhere point CHROMIUM_PATH at one.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumSkip = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    timeout: 60_000,
    // This machine's network is closed: keep Chromium from reaching out on its own.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface OpenedPage {
  context: BrowserContext;
  tab: Page;
  /** Console errors and warnings, and page errors. */
  errors: string[];
  /** Every request but the page itself (a report must need nothing else). */
  requests: string[];
}

export async function openFromDisk(browser: Browser, file: string): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const tab = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  tab.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
  });
  tab.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  tab.on('request', (r) => {
    if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
  });
  await tab.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 30_000 });
  return { context, tab, errors, requests };
}
