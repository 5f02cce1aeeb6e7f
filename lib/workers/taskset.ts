import { existsSync } from 'node:fs';

const TASKSET_PATHS = ['/usr/bin/taskset', '/bin/taskset', '/usr/local/bin/taskset'];

/** util-linux taskset, if installed. */
export function findTaskset(): string | undefined {
  return TASKSET_PATHS.find((p) => existsSync(p));
}
