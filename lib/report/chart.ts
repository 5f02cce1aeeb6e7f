import type { TopLevelSpec } from 'vega-lite';

/** One chart of the HTML report: a Vega-Lite spec and what it shows. */
export interface ChartSpec {
  id: string;
  title: string;
  spec: TopLevelSpec;
}
