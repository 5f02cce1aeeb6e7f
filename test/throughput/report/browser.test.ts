// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Archive } from '../../../lib/throughput/schema.js';
import { renderHtml } from '../../../lib/throughput/report/html.js';
import { expectedMarks, realArchive } from '../../helpers/archive.js';
import { tempDir } from '../../helpers/paths.js';

// Debian's Chromium, which .ci/run installs; elsewhere point CHROMIUM_PATH at one.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

let browser: Browser | undefined;
let archive: Archive;
const dir = tempDir('browser');
const page = path.join(dir, 'report.html');

before(async () => {
  if (skip) return;
  archive = (await realArchive()).archive;
  writeFileSync(page, await renderHtml(archive));
  browser = await chromium.launch({
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
});

after(async () => {
  await browser?.close();
});

describe('HTML report in headless Chromium', { skip }, () => {
  it('loads from disk with no console error and no request, each chart with its marks; screenshot kept', async () => {
    assert.ok(browser);
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    const tab = await context.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`);
    });
    tab.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    tab.on('request', (r) => {
      if (r.url() !== pathToFileURL(page).href) requests.push(r.url());
    });
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load', timeout: 30_000 });
    // Data marks are the items of Vega's role-mark groups (axes, legends and titles have other roles).
    const counts = await tab.evaluate(() =>
      Object.fromEntries(
        [...document.querySelectorAll('figure[data-chart]')].map((f) => [
          f.getAttribute('data-chart') ?? '',
          [...f.querySelectorAll('svg g.role-mark')].reduce((n, g) => n + g.children.length, 0),
        ]),
      ),
    );
    const shot = path.join(dir, 'report.png');
    await tab.screenshot({ path: shot, fullPage: true });
    await context.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    assert.deepEqual(counts, Object.fromEntries(expectedMarks(archive)));
    assert.ok(statSync(shot).size > 10_000, `screenshot ${shot} looks empty`);
    process.stdout.write(`# screenshot: ${shot}\n`);
  });
});
