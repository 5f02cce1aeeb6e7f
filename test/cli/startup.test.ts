// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * The command line's entry loads no experiment: every command's code is imported when it runs, so
 * `--help`, a usage error or `--version` start at once (a spawn cost 0.41-0.46 s when they loaded
 * 190 modules, zod, protobufjs and piscina among them; the suite spawns the CLI a few hundred times).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/** Static imports of a compiled module (`import ... from '...'` and `export ... from '...'`), not `import()`. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [
    ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)';/gms),
    ...text.matchAll(/^import\s+'([^']+)';/gm),
  ].map((m) => m[1] as string);
}

/** Every module the file reaches by static imports: its own files, and the packages and node: builtins by name. */
function reached(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else packages.add(spec);
    }
  };
  visit(entry);
  return { files, packages };
}

const here = path.dirname(fileURLToPath(import.meta.url));
const entry = path.resolve(here, '../../bin/piper-parallel.js');

describe("the command line's start", () => {
  it('reaches no package but node builtins, and a few dozen of its own modules', () => {
    const { files, packages } = reached(entry);
    const foreign = [...packages].filter((p) => !p.startsWith('node:'));
    assert.deepEqual(foreign, []);
    assert.ok(files.size < 40, `${files.size} modules: ${[...files].map((f) => path.relative(here, f)).join(', ')}`);
  });

  it('the reader of imports sees what a command module imports (a check that cannot see imports passes anything)', () => {
    const { packages, files } = reached(path.resolve(here, '../../lib/cli/commands/capacity-command.js'));
    assert.ok(files.size > 40, `${files.size}`);
    assert.ok(packages.has('zod') && packages.has('piscina'), [...packages].join(', '));
  });
});
