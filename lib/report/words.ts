/** Words every report and command line shares, written once: the failed-control sentence, a counted noun. */

/** What a failed control means for a run's figures. */
export const NOT_PUBLISHABLE = 'nothing from this run may be published';

/** A report's banner when a control failed (Markdown and HTML alike). */
export const CONTROL_FAILED = `A control failed: ${NOT_PUBLISHABLE}.`;

/** "1 round", "3 rounds". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
