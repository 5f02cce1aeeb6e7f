/**
 * What a fresh capacity worker synthesizes before it says it is loaded. Under piper-tts's session
 * (memory pattern and arena on), a fresh session pays up to twice the compute on a sentence whose
 * length it has not yet seen come round twice, in the order the text goes: warmed on the first
 * sentence once, a worker's first listener of the 2-sentence reply cost 1.53 to 1.67 times its third
 * (both synthetic voices); warmed on the reply twice, 0.88 to 1.05 (`node dist/bench/capacity-warmup.js 5`).
 * One process per stream serves one listener a trial on fresh workers every round, so a short warm-up
 * makes that layout's later rounds slower than its first (whose search reuses its workers): a bias
 * between rounds and between layouts, not the machine's.
 */

/** At most this many sentences warm a worker, so a long text does not make every spawn slow. */
export const WARMUP_MAX_SENTENCES = 8;

/** The text's sentence indexes, in order, `passes` times; a long text's first ones only, within WARMUP_MAX_SENTENCES. */
export function warmupOrder(sentences: number, passes: number): number[] {
  if (sentences <= 0 || passes <= 0) return [];
  const first = Math.max(1, Math.min(sentences, Math.floor(WARMUP_MAX_SENTENCES / passes)));
  const order: number[] = [];
  for (let p = 0; p < passes; p += 1) for (let i = 0; i < first; i += 1) order.push(i);
  return order.slice(0, WARMUP_MAX_SENTENCES);
}
