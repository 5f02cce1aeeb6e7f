// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { chromiumSkip, launchChromium, openFromDisk } from '../../helpers/chromium.js';
import { capacityHtml } from '../../../lib/capacity/report/render.js';
import type { CapacityArchive } from '../../../lib/capacity/archive/schema.js';
import { tempDir } from '../../helpers/paths.js';
import { sweepOn } from '../sweep-harness.js';

const skip = chromiumSkip;

let browser: Browser | undefined;
let archive: CapacityArchive;
const dir = tempDir('capacity-browser');
const page = path.join(dir, 'capacity.html');

before(async () => {
  if (skip) return;
  // Two layouts on a fake machine: a worker per listener and a pool of 2, at x5 on 2 cores.
  archive = (
    await sweepOn({
      machine: { cores: 2, speed: 5, audioSeconds: [0.5, 2, 2] },
      layouts: [
        { workers: 'K', threads: 1, pinned: false, isolation: 'process' },
        { workers: 2, threads: 1, pinned: false, isolation: 'process' },
      ],
      firstAudioMs: 400,
    })
  ).archive;
  writeFileSync(page, await capacityHtml(archive));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
});

describe('the capacity report in headless Chromium', { skip }, () => {
  it('opens with the answer and its pictures, every chart drawn, before the evidence; no console error, no request', async () => {
    assert.ok(browser);
    const { context, tab, errors, requests } = await openFromDisk(browser, page);
    const seen = await tab.evaluate(() => {
      const top = (el: Element | null): number => (el ? el.getBoundingClientRect().top + window.scrollY : -1);
      const heading = (text: string): Element | null =>
        [...document.querySelectorAll('h2')].find((h) => h.textContent === text) ?? null;
      return {
        marks: Object.fromEntries(
          [...document.querySelectorAll('figure[data-chart]')].map((f) => [
            f.getAttribute('data-chart') ?? '',
            [...f.querySelectorAll('svg g.role-mark')].reduce((n, g) => n + g.children.length, 0),
          ]),
        ),
        answer: top(heading('Answer')),
        speed: top(document.querySelector('figure[data-chart^="live-speed-"]')),
        buffers: top(document.querySelector('figure[data-chart^="prebuffer-"]')),
        measured: top(heading('How it was measured')),
        evidence: top(heading('Evidence at each K tried')),
      };
    });
    const shot = path.join(dir, 'capacity.png');
    await tab.screenshot({ path: shot, fullPage: true });
    await context.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    assert.deepEqual(Object.keys(seen.marks).sort(), [
      'first-audio-fake-voice',
      'gaps-fake-voice',
      'live-speed-fake-voice',
      'prebuffer-fake-voice',
      'timeline-fake-voice',
    ]);
    for (const [id, n] of Object.entries(seen.marks)) assert.ok(n > 0, `${id} has no mark`);
    // The answer first, its pictures next, then how it was measured and the evidence.
    assert.ok(
      seen.answer >= 0 && seen.answer < seen.speed && seen.speed < seen.buffers && seen.buffers < seen.measured,
      JSON.stringify(seen),
    );
    assert.ok(seen.measured < seen.evidence, JSON.stringify(seen));
    assert.ok(statSync(shot).size > 10_000, `screenshot ${shot} looks empty`);
    process.stdout.write(`# screenshot: ${shot}\n`);
  });
});
