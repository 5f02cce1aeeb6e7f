/**
 * A full garbage collection of this process, run where nothing is timed. The parent allocates as it
 * loads workers and reads their messages; left to itself, V8 collects whenever its heap says so, and
 * one collection of about 100 ms fell inside an arm's timed passes (`npm run bench`, 2026-12-07: the
 * worst arm's parent at 7% of a core, its median 0.5%). Collected before each arm's passes, nothing
 * is owed when the barrier opens. Node exposes `gc` only behind a flag, set here at first use.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null | undefined;

/** Collect now; false where this Node gives no way to (nothing done). */
export function collectGarbage(): boolean {
  if (collect === undefined) {
    const exposed = (globalThis as { gc?: unknown }).gc;
    if (typeof exposed === 'function') collect = exposed as () => void;
    else
      try {
        v8.setFlagsFromString('--expose-gc');
        const fn: unknown = vm.runInNewContext('gc');
        collect = typeof fn === 'function' ? (fn as () => void) : null;
      } catch {
        collect = null;
      }
  }
  collect?.();
  return collect !== null;
}
