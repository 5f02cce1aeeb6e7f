// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** The documents as a newcomer meets them: a short README that links every page, and no link that leads nowhere. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './helpers/paths.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
/** The user's pages, docs/*.md; the contributor's, docs/contributing/*.md. */
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const CONTRIBUTING = readdirSync(path.join(ROOT, 'docs', 'contributing'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const documents = [
  'README.md',
  'CHANGELOG.md',
  ...DOCS.map((f) => `docs/${f}`),
  ...CONTRIBUTING.map((f) => `docs/contributing/${f}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Headings outside code blocks. */
function anchors(text: string): Set<string> {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')));
}

/** Relative Markdown links, [text](target), outside code. */
function links(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((t) => !/^[a-z]+:/.test(t));
}

/** A measured figure: a speed against real time (x9.54; not the pace x1 nor x64 of linux-x64), a memory size (490 MiB), a lateness (5.1 ms late), a number to plan on. */
const FIGURE =
  /(?<![\w.-])x(?!1(?!\.?\d))(?!64\b)\d+(?:\.\d+)?\b|\b\d+(?:\.\d+)? MiB\b|\b\d+(?:\.\d+)? ms late\b|\bplan on \d+/g;
/** The command that measured it: in backticks, or a code block. */
const COMMAND = /`(?:npx piper-parallel|piper-parallel|node dist\/|npm run bench|npm test)[^`]*`|^```/m;
const DATE = /\b20\d\d-\d\d-\d\d(?!\d)/;
/** The session profile it ran under; a server's figure runs the server's own, and a figure of the client alone none. */
const PROFILE = /piper-tts|libpiper|the server's own settings|profile: none/;

/** Sections from a heading of level 1 to 3 to the next, headings inside code blocks not counted (a sub-heading belongs to its section). */
function sections(text: string): string[] {
  const out: string[][] = [[]];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && /^#{1,3} /.test(line)) out.push([]);
    out.at(-1)?.push(line);
  }
  return out.map((lines) => `${lines.join('\n')}\n`);
}

/** Sections that quote a measured figure without its command, date or profile. */
export function unsourcedFigures(doc: string, text: string): string[] {
  return sections(text).flatMap((section) => {
    const prose = section.replace(/^```[\s\S]*?^```/gm, '');
    const figures = prose.match(FIGURE) ?? [];
    if (figures.length === 0) return [];
    const missing = (
      [
        ['command', COMMAND],
        ['date', DATE],
        ['profile', PROFILE],
      ] as const
    ).flatMap(([name, re]) => (re.test(section) ? [] : [name]));
    const title = section.split('\n')[0]?.slice(0, 70) ?? '';
    return missing.length > 0 ? [`${doc}: "${title}" quotes ${figures[0]} without its ${missing.join(', ')}`] : [];
  });
}

describe('documents', () => {
  it('every measured figure sits in a section that gives the command, the date and the session profile', () => {
    const unsourced = documents
      .filter((d) => d !== 'CHANGELOG.md')
      .flatMap((d) => unsourcedFigures(d, readFileSync(path.join(ROOT, d), 'utf8')));
    assert.deepEqual(unsourced, []);
  });

  it('the figure check finds a figure without its command, date or profile, and passes one with all three', () => {
    assert.deepEqual(unsourcedFigures('a.md', '## A\nIt ran at x9.5.\n'), [
      'a.md: "## A" quotes x9.5 without its command, date, profile',
    ]);
    assert.deepEqual(
      unsourcedFigures('a.md', '## A\n`npm run bench`, 2026-12-05, piper-tts: x9.5 and 490 MiB.\n## B\nNo figure.\n'),
      [],
    );
    assert.deepEqual(
      unsourcedFigures('a.md', '## A\n```\nx9.5\n```\n'),
      [],
      'a figure in a code block is its own output',
    );
    assert.deepEqual(
      unsourcedFigures('a.md', '## A\n`npm test` 2026-12-05T08:43, piper-tts\n#### B\nx9.5\n```\n# C\n```\nx3\n'),
      [],
    );
    assert.deepEqual(unsourcedFigures('a.md', '## A\n`npm test` 2026-12-05: plan on 3.\n'), [
      'a.md: "## A" quotes plan on 3 without its profile',
    ]);
  });

  it("the README is at most 300 lines and links every page of docs/ and the contributors' index", () => {
    assert.ok(README.split('\n').length <= 300, `README.md is ${README.split('\n').length} lines`);
    const linked = new Set(links(README).map((l) => l.split('#')[0]));
    assert.deepEqual(
      [...DOCS.map((f) => `docs/${f}`), 'docs/contributing/README.md'].filter((f) => !linked.has(f)),
      [],
    );
    assert.ok(DOCS.length >= 10);
  });

  it("docs/ holds the user's pages and docs/contributing/ the contributor's, its index linking each", () => {
    const contributorPages = ['architecture', 'method-notes', 'performance', 'reliability', 'statistics', 'testing'];
    assert.deepEqual(
      DOCS.filter((f) => contributorPages.includes(f.replace(/\.md$/, ''))),
      [],
      'a contributor page among the user pages',
    );
    const index = readFileSync(path.join(ROOT, 'docs', 'contributing', 'README.md'), 'utf8');
    const listed = new Set(links(index).map((l) => l.split('#')[0]));
    assert.deepEqual(
      CONTRIBUTING.filter((f) => f !== 'README.md' && !listed.has(f)),
      [],
    );
    assert.deepEqual(
      contributorPages.map((p) => `${p}.md`).filter((f) => !CONTRIBUTING.includes(f)),
      [],
    );
  });

  it('within its first 80 lines: the two commands, how to install as a dependency, and the performance page', () => {
    const head = README.split('\n').slice(0, 80).join('\n');
    assert.match(head, /npm ci && npx piper-parallel 6\nnpm test/);
    assert.match(head, /npm install --save-dev piper-parallel/);
    assert.match(head, /"allowScripts": \{ "onnxruntime-node": false \}/);
    assert.match(head, /ONNXRUNTIME_NODE_INSTALL=skip/);
    assert.match(head, /\(docs\/contributing\/performance\.md\)/);
  });

  it('every relative link of every document points at a file that exists, and every #anchor at one of its headings', () => {
    const broken: string[] = [];
    for (const doc of documents) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      for (const link of links(text)) {
        const [file, anchor] = link.split('#');
        const target = file ? path.join(path.dirname(path.join(ROOT, doc)), file) : path.join(ROOT, doc);
        if (!existsSync(target)) broken.push(`${doc}: ${link} (no such file)`);
        else if (anchor && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
          broken.push(`${doc}: ${link} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the link checker finds a missing file and a missing heading', () => {
    assert.deepEqual(links('see [a](docs/x.md#y), `[b](c.md)` and [web](https://example.org)'), ['docs/x.md#y']);
    assert.equal(slug('Rounds: answers that hold on a rerun'), 'rounds-answers-that-hold-on-a-rerun');
    assert.equal(slug('--precision'), '--precision');
    assert.ok(!anchors('# A\n```\n# B\n```\n').has('b'));
  });
});
