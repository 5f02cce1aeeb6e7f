// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import type { Archive } from '../../lib/throughput/schema.js';
import { chromium } from 'playwright-core';
import { COLUMNS, rowCells } from '../../lib/summary/render/cells.js';
import { summaryCsv } from '../../lib/summary/render/csv.js';
import { summaryCharts } from '../../lib/summary/render/charts.js';
import { summaryHtml } from '../../lib/summary/render/html.js';
import { summarizeMachines } from '../../lib/summary/summarize.js';
import { readSummaryInput } from '../../lib/summary/read.js';
import type { Summary, SummaryRow } from '../../lib/summary/types.js';
import { realArchive } from '../helpers/archive.js';
import { pythonArchive, capacitySchemaOne } from '../helpers/old-archives.js';
import { BIN, tempDir } from '../helpers/paths.js';
import {
  capacityFixture,
  capacityTemplate,
  N100,
  PI5,
  throughputFixture,
  VOICE,
  writeFixture,
} from '../helpers/summary-fixtures.js';

const dir = tempDir('summary');
const MIB = 2 ** 20;
let real: Archive;
let summary: Summary;

before(async () => {
  real = (await realArchive()).archive;
  const cap = await capacityTemplate();
  const sha = real.bras[0]?.voix_sha256 ?? '';
  // pi5 (labelled): two throughput runs whose intervals overlap, two capacity runs that disagree.
  writeFixture(
    dir,
    'piper-parallel-20261120-100000.json',
    throughputFixture(
      real,
      PI5,
      [
        [2.0, 2.2, 1.8],
        [1.9, 2.0, 2.1],
        [3.6, 3.9, 3.3],
        [3.0, 3.1, 2.9],
      ],
      { label: 'pi5', date: '2026-11-20T10:00:00Z' },
    ),
  );
  writeFixture(
    dir,
    'piper-parallel-20261121-100000.json',
    throughputFixture(
      real,
      PI5,
      [
        [2.1, 2.0, 2.0],
        [2, 2, 2],
        [3.8, 3.7, 3.6],
        [3.1, 3.0, 3.2],
      ],
      { label: 'pi5', date: '2026-11-21T10:00:00Z' },
    ),
  );
  writeFixture(
    dir,
    'capacity-20261120-110000.json',
    capacityFixture(
      cap,
      PI5,
      { noGap: 10, range: [10, 12], inBound: 4 },
      { label: 'pi5', date: '2026-11-20T11:00:00Z', voiceSha: sha },
    ),
  );
  writeFixture(
    dir,
    'capacity-20261121-110000.json',
    capacityFixture(
      cap,
      PI5,
      { noGap: 8, range: [8, 10], inBound: 4 },
      { date: '2026-11-21T11:00:00Z', voiceSha: sha },
    ),
  );
  // n100 (no label): a second throughput run on another text and a capacity run at another bound, kept apart.
  const n100 = [
    [3.0, 3.3, 2.7],
    [2.9, 3.2, 2.6],
    [5.0, 5.5, 4.5],
    [4.8, 5.6, 4.4],
  ] as [number[], number[], number[], number[]];
  writeFixture(
    dir,
    'piper-parallel-20261125-100000.json',
    throughputFixture(real, N100, n100, { date: '2026-11-25T10:00:00Z', rss: 400 * MIB }),
  );
  writeFixture(
    dir,
    'piper-parallel-20261126-100000.json',
    throughputFixture(real, N100, n100, { date: '2026-11-26T10:00:00Z', textSha: 'b'.repeat(64) }),
  );
  writeFixture(
    dir,
    'capacity-20261125-110000.json',
    capacityFixture(
      cap,
      N100,
      { noGap: 14, range: [14, 14], inBound: 6 },
      { date: '2026-11-25T11:00:00Z', voiceSha: sha },
    ),
  );
  writeFixture(
    dir,
    'capacity-20261126-110000.json',
    capacityFixture(
      cap,
      N100,
      { noGap: 12, range: [12, 13], inBound: 2, boundMs: 300 },
      { date: '2026-11-26T11:00:00Z', voiceSha: sha },
    ),
  );
  // Older formats: the Python script's archive (one arm per K, no rounds) and a schema 1 capacity archive of pi5.
  const python = pythonArchive(1.5) as { bras: Array<Record<string, unknown>> };
  python.bras.push({
    ...python.bras[0],
    flux_simultanes: 1,
    enfants: [],
    debit_par_flux_mediane: [1.5],
    debit_agrege_mediane: 1.5,
  });
  writeFixture(dir, 'piper-parallel-20250101-000000.json', python);
  writeFixture(
    dir,
    'capacity-20261122-110000.json',
    capacitySchemaOne(
      capacityFixture(
        cap,
        PI5,
        { noGap: 9, range: [9, 9], inBound: 5 },
        { date: '2026-11-22T11:00:00Z', voiceSha: sha },
      ),
      5,
    ),
  );
  // This machine's real run, and two files that are not archives.
  writeFixture(dir, 'piper-parallel-20261201-120000.json', real);
  writeFileSync(path.join(dir, 'piper-parallel-20261201-130000.json'), '{"schema_version": 2, "bras": [');
  writeFixture(dir, 'capacity-20261201-130000.json', { type: 'capacite', schema_version: 2 });
  summary = await summarizeMachines([dir], { prices: ['pi5=0.02', '0.05'] });
});

const rowsOf = (label: string): SummaryRow[] => summary.rows.filter((r) => r.label === label && r.voice === VOICE);
const near = (actual: number | undefined, expected: number, what: string): void =>
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) < 1e-6 * Math.max(1, expected),
    `${what}: ${actual} instead of ${expected}`,
  );

describe('summary of several machines (fixture archives named as such, and one real run)', () => {
  it('reads one archive at a time: a folder of large archives is never all in memory at once', async () => {
    let reading = 0;
    let most = 0;
    const again = await summarizeMachines([dir], {
      prices: ['pi5=0.02', '0.05'],
      read: async (file) => {
        reading += 1;
        most = Math.max(most, reading);
        try {
          return await readSummaryInput(file);
        } finally {
          reading -= 1;
        }
      },
    });
    assert.ok(again.files > 3);
    assert.equal(most, 1);
    assert.deepEqual(again.rows.length, summary.rows.length);
  });

  it('pi5: two runs, each one draw (never pooled); figures as worked by hand', () => {
    const [row, old, ...rest] = rowsOf('pi5');
    assert.ok(row);
    assert.equal(rest.length, 0);
    // The schema 1 capacity run measured under other settings (no sessions): a row of its own, its one answer the bounded one.
    assert.ok(
      old?.notes.some((n) =>
        n.includes('capacity evidence by listener, one answer (schema 1) here, by trial (schema 3) there'),
      ),
      old?.notes.join('\n'),
    );
    assert.deepEqual([old?.bestCapacity?.noGap, old?.bestCapacity?.inBound.k], [null, 5]);
    assert.deepEqual(
      [row.throughputRuns.length, row.capacityRuns.length, row.cores, row.labelFrom, row.synthetic],
      [2, 2, 4, 'archive', true],
    );
    assert.deepEqual(row.dates, ['2026-11-20', '2026-11-21']);
    // K=1 free arm: each run one draw (geometric means 1.993322 and 2.032793), t(1) interval over the
    // two (t(1) 12.706, the table's): 2.012955 [1.777129, 2.280075]; one more run 95% within [1.622199, 2.497837].
    assert.equal(row.singleStream?.method, 'runs as draws');
    near(row.singleStream?.centre, 2.012955054, 'alone');
    near(row.singleStream?.interval?.[0], 1.7771292, 'alone lo');
    near(row.singleStream?.interval?.[1], 2.280075107, 'alone hi');
    near(row.singleStream?.rerun?.[0], 1.622198585, 'alone rerun lo');
    near(row.singleStream?.rerun?.[1], 2.497837249, 'alone rerun hi');
    // K=2: 2 processes free over pinned, paired round by round in each run, each run one draw: 1.195664 [1.170597, 1.221268].
    const k2 = row.bestPerK.find((b) => b.k === 2);
    assert.equal(k2?.best, '2 processes x 1 thread, free');
    assert.equal(k2?.over?.layout, '2 processes x 1 thread, pinned');
    assert.deepEqual(k2?.tiedWith, []);
    near(k2?.over?.ratio?.centre, 1.195664035, 'lead');
    near(k2?.over?.ratio?.interval?.[0], 1.170597162, 'lead lo');
    near(k2?.over?.ratio?.interval?.[1], 1.221267684, 'lead hi');
    // Capacity: runs answered 10 and 8: the least, 8, over 8 to 12; 4 within the bound in both.
    assert.deepEqual(
      [
        row.bestCapacity?.noGap?.k,
        row.bestCapacity?.noGap?.range,
        row.bestCapacity?.noGap?.perRun,
        row.bestCapacity?.inBound.k,
      ],
      [8, { min: 8, max: 12 }, [10, 8], 4],
    );
    assert.equal(row.streamRssBytes, 300 * MIB);
    // 0.02 an hour: 0.0025 per live stream-hour (0.02/12 to 0.02/8); per hour of speech 0.02 / x3.644977 [0.02/4.395695, 0.02/3.022470] (K=2 free, each run one draw, t(1)).
    assert.equal(row.cost?.pricePerHour, 0.02);
    near(row.cost?.perStreamHour?.centre, 0.0025, 'per stream');
    near(row.cost?.perStreamHour?.range[0], 0.02 / 12, 'per stream lo');
    near(row.cost?.perSpeechHour?.centre, 0.005487002829, 'per speech');
    near(row.cost?.perSpeechHour?.interval?.[0], 0.004549906159, 'per speech lo');
    near(row.cost?.perSpeechHour?.interval?.[1], 0.006617103517, 'per speech hi');
  });

  it('n100: named from its fingerprint; a lead not told from the runner-up is said, the first resolved one quoted; other workloads kept apart per row', () => {
    const rows = rowsOf(summary.rows.find((r) => r.machine.includes('N100'))?.label ?? 'none');
    assert.equal(rows.length, 3);
    const [main, capacityApart, textApart] = [
      rows[0],
      rows.find((r) => r.notes.some((n) => /capacity runs kept apart from this machine/.test(n))),
      rows.find((r) => r.notes.some((n) => /throughput runs kept apart from this machine/.test(n))),
    ];
    assert.ok(main && capacityApart && textApart);
    assert.match(main.label, /^x64-fixture-n100-4c-16g-[0-9a-f]{4}$/);
    assert.equal(main.labelFrom, 'fingerprint');
    assert.deepEqual([main.throughputRuns.length, main.capacityRuns.length], [1, 1]);
    const k2 = main.bestPerK.find((b) => b.k === 2);
    assert.equal(k2?.best, '2 processes x 1 thread, free');
    assert.deepEqual(
      k2?.tiedWith.map((t) => t.layout),
      ['2 processes x 1 thread, pinned'],
    );
    near(k2?.tiedWith[0]?.ratio?.interval?.[0], 0.9420444, 'tie lo');
    assert.equal(k2?.over?.layout, '1 process x 1 thread, serving the 2 one after another');
    near(k2?.over?.ratio?.centre, 5 / 3, 'lead over one worker');
    const k1 = main.bestPerK.find((b) => b.k === 1);
    near(k1?.over?.ratio?.centre, 1.03472723, 'K=1 free over pinned');
    assert.equal(main.singleStream?.method, 'one run');
    near(main.singleStream?.interval?.[1], 3.836779344, 'alone hi');
    assert.ok(
      capacityApart.notes.some((n) => n.includes('capacity first-audio bound ms 300 here, 500 there')),
      capacityApart.notes.join('\n'),
    );
    assert.equal(capacityApart.bestCapacity?.noGap?.k, 12);
    assert.ok(
      textApart.notes.some((n) => /text bbbbbbbbbbbb here, [0-9a-f]{12} there/.test(n)),
      textApart.notes.join('\n'),
    );
    assert.equal(main.cost?.pricePerHour, 0.05);
    near(main.cost?.perStreamHour?.centre, 0.05 / 14, 'n100 per stream');
  });

  it("this machine's real run is a row of its own; the files that are not archives are one line each, the rest summarized", () => {
    const mine = summary.rows.filter(
      (r) =>
        r.machine ===
        summary.rows.find((x) => x.throughputRuns.some((f) => f.endsWith('20261201-120000.json')))?.machine,
    );
    assert.equal(mine.length, 1);
    assert.equal(mine[0]?.synthetic, true);
    assert.equal(summary.problems.length, 2);
    assert.ok(summary.problems.some((p) => /piper-parallel-20261201-130000\.json is not valid JSON/.test(p)));
    assert.ok(
      summary.problems.some((p) =>
        /capacity-20261201-130000\.json is not a capacity archive this version reads/.test(p),
      ),
    );
    assert.equal(summary.files, 13);
    // The Python script's archive: its machine (architecture and cores), a real voice, one figure per arm and no interval.
    const py = summary.rows.find((r) => r.machine === 'aarch64|2 cores');
    assert.deepEqual(
      [py?.voice, py?.synthetic, py?.singleStream?.centre, py?.singleStream?.interval, py?.singleStream?.method],
      ['fr_FR-siwis-medium', false, 1.5, null, 'no rounds'],
    );
    // Two processes made 3.0 against 1.5 for one worker serving both in turn: x2, but no interval, so not resolved.
    const k2 = py?.bestPerK.find((b) => b.k === 2);
    assert.deepEqual([k2?.best, k2?.over, k2?.tiedWith[0]?.ratio?.centre], ['2 processes x 1 thread, free', null, 2]);
  });

  it('--csv: the machine table as RFC 4180 CSV, every cell the Markdown table has, a formula never started', () => {
    const csv = summaryCsv(summary);
    const records = csv.split('\r\n');
    assert.equal(records.at(-1), '');
    assert.equal(records.length - 1, summary.rows.length + 1);
    assert.equal(records[0], COLUMNS.map((c) => `"${c}"`).join(','));
    const first = summary.rows[0];
    assert.ok(first);
    assert.equal(
      records[1],
      rowCells(first)
        .map((c) => `"${c.replaceAll('"', '""')}"`)
        .join(','),
    );
    const hostile = summaryCsv({ ...summary, rows: [{ ...first, label: '=HYPERLINK("x")' }] });
    assert.match(hostile, /\r\n"'=HYPERLINK\(""x""\)",/);
    const r = spawnSync(process.execPath, [BIN, 'summary', dir, '--csv'], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.ok(r.stdout.startsWith(`"${COLUMNS[0]}",`), r.stdout.slice(0, 200));
    const both = spawnSync(process.execPath, [BIN, 'summary', dir, '--csv', '--json'], { encoding: 'utf8' });
    assert.equal(both.status, 2);
    assert.match(both.stderr, /--json and --csv each print the table: give one of them/);
  });

  it('the command prints the table with the bad files on stderr, exit 2; writes the page and its Markdown; a bad --price is one line', () => {
    const out = path.join(dir, 'summary.html');
    const r = spawnSync(process.execPath, [BIN, 'summary', dir, '--price', 'pi5=0.02', '--out', out], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(
      r.stdout,
      /\| pi5 \| 4 \| synthetic-siwis-medium \(SYNTHETIC\) \| 2 \+ 2 \| 2026-11-20 to 2026-11-21 \| x2\.01 \[1\.78, 2\.28\]; a rerun x1\.62 to x2\.50 \|/,
    );
    assert.match(r.stdout, /8 \(8-12\), pool of 2 processes x 1 thread, free/);
    // Every layout with both answers: pi5's one layout over its two agreeing-in-workload runs.
    assert.match(
      r.stdout,
      /^\| pi5 \| synthetic-siwis-medium \(SYNTHETIC\) \| pool of 2 processes x 1 thread, free \| 8 \(8-12\) \| - \| \d+ of \d+ trials held, a trial's gap chance below \d+% \| 4 \| \d+ ms \| 2 \|$/m,
    );
    assert.match(r.stderr, /piper-parallel: .*piper-parallel-20261201-130000\.json is not valid JSON/);
    assert.ok(readFileSync(out, 'utf8').includes('data-chart="live-streams"'));
    assert.ok(existsSync(path.join(dir, 'summary.md')));
    const bad = spawnSync(process.execPath, [BIN, 'summary', dir, '--price', 'pi5=cheap'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(bad.status, 2);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    assert.match(bad.stderr, /--price must be LABEL=AMOUNT or AMOUNT, an hourly price above 0, got "pi5=cheap"/);
    const typo = spawnSync(process.execPath, [BIN, 'summary', dir, '--price', 'pi6=0.02'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.match(typo.stderr, /--price pi6=\.\.\.: no machine here is called pi6/);
  });

  it('a layout with as many live streams as the best is named beside it', () => {
    const row = structuredClone(rowsOf('pi5')[0] as SummaryRow);
    const best = row.bestCapacity as NonNullable<SummaryRow['bestCapacity']>;
    row.capacity.push(
      { ...best, layout: 'one process per stream x 1 thread, free' },
      { ...best, layout: 'fewer', noGap: { ...(best.noGap as NonNullable<typeof best.noGap>), k: 7 } },
    );
    row.bestCapacity = row.capacity[0] ?? null;
    assert.match(
      rowCells(row)[7] ?? '',
      /^8 \(8-12\), pool of 2 processes x 1 thread, free, .*; as many with one process per stream x 1 thread, free$/,
    );
  });

  it('charts: one bar and one range per row with live streams, and per priced row', () => {
    const charts = summaryCharts(summary.rows);
    const live = summary.rows.filter((r) => r.bestCapacity?.noGap).length;
    const priced = summary.rows.filter(
      (r) => r.cost?.perStreamHour && Number.isFinite(r.cost.perStreamHour.range[1]),
    ).length;
    assert.deepEqual(
      charts.map((c) => [c.id, (c.spec as { data: { values: unknown[] } }).data.values.length]),
      [
        ['live-streams', live],
        ['cost-per-stream', priced],
      ],
    );
    assert.ok(live >= 3 && priced >= 3);
    // Two rows of one machine and voice (kept apart) must not stack into one bar.
    for (const c of charts) {
      const names = (c.spec as { data: { values: Array<{ row: string }> } }).data.values.map((v) => v.row);
      assert.equal(new Set(names).size, names.length, names.join(' / '));
    }
  });
});

// Debian's Chromium, which .ci/run installs; elsewhere point CHROMIUM_PATH at one.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const noBrowser = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;

describe('summary page in headless Chromium', { skip: noBrowser }, () => {
  it('loads from disk with no console error and no request; each chart holds a bar and a range per row', async () => {
    const page = path.join(dir, 'browser-summary.html');
    writeFileSync(page, await summaryHtml(summary));
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: 60_000,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      tab.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
      });
      tab.on('pageerror', (e) => errors.push(e.message));
      tab.on('request', (r) => {
        if (r.url() !== pathToFileURL(page).href) requests.push(r.url());
      });
      await tab.goto(pathToFileURL(page).href, { waitUntil: 'load', timeout: 30_000 });
      const counts = await tab.evaluate(() =>
        Object.fromEntries(
          [...document.querySelectorAll('figure[data-chart]')].map((f) => [
            f.getAttribute('data-chart') ?? '',
            [...f.querySelectorAll('svg g.role-mark')].reduce((n, g) => n + g.children.length, 0),
          ]),
        ),
      );
      const rows = await tab.evaluate(() => document.querySelector('table tbody')?.children.length ?? 0);
      await tab.screenshot({ path: path.join(dir, 'summary.png'), fullPage: true });
      assert.deepEqual([errors, requests], [[], []]);
      const live = summary.rows.filter((r) => r.bestCapacity?.noGap).length;
      const priced = summary.rows.filter(
        (r) => r.cost?.perStreamHour && Number.isFinite(r.cost.perStreamHour.range[1]),
      ).length;
      assert.deepEqual(counts, { 'live-streams': 2 * live, 'cost-per-stream': 2 * priced });
      assert.equal(rows, summary.rows.length);
      process.stdout.write(`# screenshot: ${path.join(dir, 'summary.png')}\n`);
    } finally {
      await browser.close();
    }
  });
});
