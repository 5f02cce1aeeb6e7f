/**
 * The figures a Node release can move, measured by the Node running this file: process startup,
 * the process barrier's skew, a bare onnxruntime process's peak RSS. `npm run bench` runs it with
 * its own Node and with Node 24 LTS from the registry, and prints both. Prints one JSON line.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { median } from '../lib/measure/stats.js';
import { bareRss, processSkew } from './measures.js';
import { DEFAULT_SESSION_PROFILE } from '../lib/voice/session-profile.js';

const voicesDir = path.resolve(process.argv[2] ?? 'voices');
const startupMs: number[] = [];
for (let i = 0; i < 10; i += 1) {
  const t0 = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { timeout: 30_000 });
  startupMs.push(performance.now() - t0);
}
const skew = await processSkew(100);
// The default profile, as a run uses it.
const bareBytes = await bareRss('synthetic-siwis-medium', voicesDir, { passes: 1, session: DEFAULT_SESSION_PROFILE });
process.stdout.write(`${JSON.stringify({ node: process.version, startupMs: median(startupMs), skew, bareBytes })}\n`);
