// light test file: compares schemas, measures nothing.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { CapacityArchiveV1Schema } from '../../../lib/capacity/archive/schema-v1.js';
import { CapacityArchiveV2Schema } from '../../../lib/capacity/archive/schema-v2.js';
import { ROOT } from '../../helpers/paths.js';

/**
 * Schemas 1 and 2 are written as today's schema 3 with keys left out, so a change to 3 would silently
 * change what an old archive must hold: it happened once (a schema 1 file of 2026-11-30 refused by
 * compare and summary). What each accepts is frozen here as its JSON Schema, written when it was frozen.
 */
const FROZEN = path.join(ROOT, 'test', 'fixtures', 'schemas');

const asText = (schema: z.ZodType): string => `${JSON.stringify(z.toJSONSchema(schema, { io: 'input' }), null, 2)}\n`;

describe('old capacity schemas, frozen', () => {
  for (const [version, schema] of [
    [1, CapacityArchiveV1Schema],
    [2, CapacityArchiveV2Schema],
  ] as const) {
    it(`schema ${version} accepts what it accepted when it was frozen`, () => {
      const file = path.join(FROZEN, `capacity-v${version}.schema.json`);
      assert.equal(
        asText(schema),
        readFileSync(file, 'utf8'),
        `capacity schema ${version} changed (lib/capacity/archive/schema-v${version}.ts follows schema 3): ` +
          `leave the new key out of it there, so the archives it read stay readable; ${file} is what it accepted`,
      );
    });
  }

  it('what each froze accepts the archives of its version this tool wrote on the project VMs', (t) => {
    const dir = path.join(ROOT, '..', 'shared', 'archives');
    if (!existsSync(dir)) return t.skip('../shared/archives is not here');
    const files = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => readdirSync(path.join(dir, d.name)).map((f) => path.join(dir, d.name, f)))
      .filter((f) => /\/capacity-[^/]*\.json$/.test(f));
    let read = 0;
    for (const file of files) {
      const archive = JSON.parse(readFileSync(file, 'utf8')) as { schema_version?: number };
      if (archive.schema_version !== 1 && archive.schema_version !== 2) continue;
      const frozen = readFileSync(path.join(FROZEN, `capacity-v${archive.schema_version}.schema.json`), 'utf8');
      const r = z.fromJSONSchema(JSON.parse(frozen) as Parameters<typeof z.fromJSONSchema>[0]).safeParse(archive);
      assert.ok(r.success, `${file}: ${r.error?.issues[0]?.path.join('.')} ${r.error?.issues[0]?.message}`);
      read += 1;
    }
    assert.ok(read > 0, 'no archive of schema 1 or 2 in ../shared/archives');
  });
});
