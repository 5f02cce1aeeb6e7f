/** --price: what a machine costs per hour, and what that makes a live stream and an hour of speech cost. */
import { PiperParallelError } from '../core/errors.js';
import type { Cost, SummaryRow } from './types.js';

export interface Prices {
  /** For every machine without a price of its own. */
  fallback: number | null;
  byLabel: Map<string, number>;
}

const AMOUNT = /^\d+(\.\d+)?$/;

/** `LABEL=AMOUNT` or `AMOUNT`, per hour, repeatable; anything else is a one-line error naming --price. */
export function parsePrices(values: readonly string[]): Prices {
  const prices: Prices = { fallback: null, byLabel: new Map() };
  for (const v of values) {
    const at = v.lastIndexOf('=');
    const [label, amount] = at < 0 ? [null, v] : [v.slice(0, at).trim(), v.slice(at + 1).trim()];
    if (!AMOUNT.test(amount) || !(Number(amount) > 0) || label === '')
      throw new PiperParallelError(
        'USAGE',
        `--price must be LABEL=AMOUNT or AMOUNT, an hourly price above 0, got "${v}"; e.g. --price pi5=0.01 --price 0.05`,
      );
    if (label === null) prices.fallback = Number(amount);
    else prices.byLabel.set(label, Number(amount));
  }
  return prices;
}

/**
 * The costs of a row at `price` per hour. Per live stream-hour: the price over the best layout's live
 * streams with no gap, its range over the range the trials leave open. Per hour of speech: the price
 * over the most speech per second the machine made (the best layout at its largest K), over its interval.
 */
export function costOf(row: Pick<SummaryRow, 'bestCapacity' | 'bestPerK' | 'singleStream'>, price: number): Cost {
  const live = row.bestCapacity?.noGap ?? row.bestCapacity?.inBound ?? null;
  const speech = row.bestPerK.at(-1)?.aggregate ?? row.singleStream;
  const per = (n: number): number => (n > 0 ? price / n : Number.POSITIVE_INFINITY);
  return {
    pricePerHour: price,
    perStreamHour: live ? { centre: per(live.k), range: [per(live.range.max), per(live.range.min)] } : null,
    perSpeechHour: speech
      ? {
          centre: price / speech.centre,
          interval: speech.interval ? [price / speech.interval[1], price / speech.interval[0]] : null,
        }
      : null,
  };
}

/** Prices that name no machine: a typo would otherwise leave a machine silently unpriced. */
export function unusedPrices(prices: Prices, labels: ReadonlySet<string>): string[] {
  return [...prices.byLabel.keys()]
    .filter((l) => !labels.has(l))
    .map((l) => `--price ${l}=...: no machine here is called ${l}; the labels are ${[...labels].join(', ')}`);
}
