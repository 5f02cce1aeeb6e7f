// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchChromium, openFromDisk } from '../../helpers/chromium.js';
import type { Archive } from '../../../lib/throughput/schema.js';
import { renderHtml } from '../../../lib/throughput/report/html.js';
import { expectedMarks, realArchive } from '../../helpers/archive.js';
import { tempDir } from '../../helpers/paths.js';

const skip = chromiumSkip;

let browser: Browser | undefined;
let archive: Archive;
const dir = tempDir('browser');
const page = path.join(dir, 'report.html');

before(async () => {
  if (skip) return;
  archive = (await realArchive()).archive;
  writeFileSync(page, await renderHtml(archive));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

describe('HTML report in headless Chromium', { skip }, () => {
  it('loads from disk with no console error and no request, each chart with its marks; screenshot kept', async () => {
    assert.ok(browser);
    const { context, tab, errors, requests } = await openFromDisk(browser, page);
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
