/**
 * A node:test reporter that prints, after the run, each test file's wall time, slowest first, so
 * the slow files are visible (`npm test` uses it beside the spec reporter).
 */
import path from 'node:path';

interface TestEvent {
  type: string;
  data?: { file?: string; nesting?: number; details?: { duration_ms?: number } };
}

/** Seconds per file, from the top-level tests' durations. */
export function fileSeconds(events: TestEvent[]): Array<{ file: string; seconds: number }> {
  const byFile = new Map<string, number>();
  for (const e of events) {
    if ((e.type !== 'test:pass' && e.type !== 'test:fail') || e.data?.nesting !== 0 || !e.data.file) continue;
    byFile.set(e.data.file, (byFile.get(e.data.file) ?? 0) + (e.data.details?.duration_ms ?? 0) / 1000);
  }
  return [...byFile].map(([file, seconds]) => ({ file, seconds })).sort((a, b) => b.seconds - a.seconds);
}

export default async function* fileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const events: TestEvent[] = [];
  for await (const e of source) events.push(e);
  const rows = fileSeconds(events);
  const total = rows.reduce((n, r) => n + r.seconds, 0);
  yield `\ntime per test file (slowest first; ${total.toFixed(1)} s in all):\n`;
  for (const r of rows) yield `${r.seconds.toFixed(1).padStart(7)} s  ${path.relative(process.cwd(), r.file)}\n`;
}
