// light test file: reads archives, measures nothing.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { capacityView } from '../../../lib/capacity/archive/view.js';
import { ROOT } from '../../helpers/paths.js';

/** The capacity archives this tool wrote on the project's VMs, kept beside the project (absent on a bare clone). */
const ARCHIVES = path.resolve(ROOT, '..', 'shared', 'archives');
const real = existsSync(ARCHIVES)
  ? readdirSync(ARCHIVES, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(path.join(ARCHIVES, d.name))
          .filter((f) => /^capacity-.*\.json$/.test(f))
          .map((f) => path.join(ARCHIVES, d.name, f)),
      )
  : [];

describe('capacity archives of every schema, as this tool wrote them', () => {
  it('each archive the tool wrote on the project VMs (schemas 1 and 2) is read by compare and summary', (t) => {
    if (real.length === 0) return t.skip('../shared/archives is not here');
    const versions = new Set<number>();
    for (const file of real) {
      const view = capacityView(JSON.parse(readFileSync(file, 'utf8')), file);
      versions.add(view.schemaVersion);
      assert.ok(view.answers.length > 0, file);
    }
    // The schema 1 file of 2026-11-30 was refused while report said compare and summary still read it.
    assert.ok(versions.has(1), `schemas read: ${[...versions].join(', ')}`);
  });
});
