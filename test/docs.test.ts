// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** The documents as a newcomer meets them: a short README that links every page, and no link that leads nowhere. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './helpers/paths.js';

const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const documents = ['README.md', 'CHANGELOG.md', ...DOCS.map((f) => `docs/${f}`)];

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

describe('documents', () => {
  it('the README is at most 300 lines and links every page of docs/', () => {
    assert.ok(README.split('\n').length <= 300, `README.md is ${README.split('\n').length} lines`);
    const linked = new Set(links(README).map((l) => l.split('#')[0]));
    assert.deepEqual(
      DOCS.filter((f) => !linked.has(`docs/${f}`)),
      [],
    );
    assert.ok(DOCS.length >= 10);
  });

  it('within its first 80 lines: the two commands, how to install as a dependency, and the performance page', () => {
    const head = README.split('\n').slice(0, 80).join('\n');
    assert.match(head, /npm ci && npx piper-parallel 6\nnpm test/);
    assert.match(head, /npm install --save-dev piper-parallel/);
    assert.match(head, /"allowScripts": \{ "onnxruntime-node": false \}/);
    assert.match(head, /ONNXRUNTIME_NODE_INSTALL=skip/);
    assert.match(head, /\(docs\/performance\.md\)/);
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
