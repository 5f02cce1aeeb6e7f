// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Archive } from '../../../lib/throughput/schema.js';
import { archiveCharts } from '../../../lib/throughput/report/charts.js';
import { renderHtml } from '../../../lib/throughput/report/html.js';
import { expectedMarks, realArchive } from '../../helpers/archive.js';

let real: Archive;
let html: string;
before(async () => {
  real = (await realArchive()).archive;
  html = await renderHtml(real);
});

describe('HTML report', () => {
  it('is self-contained: no script, no external resource, a CSP that forbids fetching', () => {
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /\b(src|href)\s*=\s*"(?!#|data:)/i);
    assert.doesNotMatch(html, /url\(\s*['"]?https?:/i);
    assert.doesNotMatch(html, /@import/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  });

  it('has one figure per chart, with the chart kinds the archive calls for', () => {
    const ids = [...html.matchAll(/<figure data-chart="([^"]+)">/g)].map((m) => m[1]);
    assert.deepEqual(ids.sort(), [...expectedMarks(real).keys()].sort());
    assert.equal(ids.length, archiveCharts(real).length);
    for (const id of ids) assert.match(html, new RegExp(`<figure data-chart="${id}"><svg`));
  });

  it('leaves out the scaling chart with one K, and the skew chart without K >= 2', async () => {
    const one = structuredClone(real);
    one.bras = one.bras.filter((b) => b.flux_simultanes === 1);
    const ids = archiveCharts(one).map((c) => c.id);
    assert.ok(!ids.some((i) => i.startsWith('scaling-') || i.startsWith('skew-')), ids.join(' '));
    assert.ok(ids.includes('throughput-synthetic-siwis-medium'));
  });

  it('opens with the decision, before the tables: the error rate and every voice and K', () => {
    const at = html.indexOf('<h2>Decision</h2>');
    assert.ok(at > 0 && at < html.indexOf('<table>'), 'the decision before the first table');
    assert.match(html, /each voice&#39;s claims hold together at 95%|each voice's claims hold together at 95%/);
    assert.equal(html.slice(at).split('</ul>')[0]?.match(/<li>/g)?.length, real.verdict.comparaisons.length);
  });

  it('names the voices as synthetic and shows failed arms in the table', async () => {
    assert.match(html, /<strong>SYNTHETIC voices<\/strong>/);
    assert.match(html, /<title>piper-parallel .* \(synthetic voices\)<\/title>/);
    const failed = structuredClone(real);
    const arm = failed.bras[0];
    if (arm) {
      arm.etat = 'failed';
      arm.erreur = 'stream 0 failed <during> pass 1';
      arm.controle_tenu = false;
      arm.bruyant = false;
    }
    failed.controle_tenu = false;
    const page = await renderHtml(failed);
    assert.match(page, /<td class="failed">FAILED: stream 0 failed &lt;during&gt; pass 1<\/td>/);
    assert.match(page, /A control failed: nothing from this run may be published/);
  });
});
