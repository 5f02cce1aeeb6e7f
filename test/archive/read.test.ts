// light test file: pure functions only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { firstIssue } from '../../lib/archive/read.js';

const Archive = z.object({
  schema_version: z.literal(3),
  outil: z.string(),
  protocole: z.object({ passes: z.number() }),
  essais: z.array(z.object({ au_rythme: z.boolean() })),
});
const issue = (value: unknown): string => {
  const r = Archive.safeParse(value);
  assert.equal(r.success, false);
  return r.success ? '' : firstIssue(r.error);
};
const good = { schema_version: 3, outil: 'x', protocole: { passes: 1 }, essais: [{ au_rythme: true }] };

test("an archive's first problem in a user's words: where and what, never a key or the schema's text", () => {
  assert.equal(issue({ ...good, essais: [{ au_rythme: true }, {}] }), 'its trial 2 lacks a value this version needs');
  assert.equal(issue({ ...good, essais: 'no' }), 'its list of trials holds a value of another kind');
  assert.equal(issue({ ...good, schema_version: 9 }), 'its schema version is not one this version reads');
  assert.equal(issue({ ...good, outil: 1 }), 'its header holds a value of another kind');
  assert.equal(issue({ ...good, protocole: {} }), 'its protocol block lacks a value this version needs');
  assert.equal(issue(null), 'the file as a whole holds a value of another kind');
  for (const v of [{ ...good, essais: [{}] }, { ...good, outil: undefined }, 7])
    assert.doesNotMatch(issue(v), /essais|au_rythme|outil|expected|received|Invalid/);
});
