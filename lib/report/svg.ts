import type { TopLevelSpec } from 'vega-lite';

/**
 * Render a Vega-Lite spec to an SVG string in Node: no browser, no network, no canvas. Vega and
 * Vega-Lite load here, on the first chart, not with the command line: they take a third of a second
 * to load, which every command that draws no chart (a run, --help) would pay.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [{ compile }, { parse, View }] = await Promise.all([import('vega-lite'), import('vega')]);
  const vegaSpec = compile({
    ...spec,
    // Vega cuts legend labels at 160 px ("synthetic-siwis-me..."): an arm is named whole or not at all.
    config: {
      ...spec.config,
      font: 'sans-serif',
      background: 'white',
      legend: { labelLimit: 0, ...spec.config?.legend },
    },
  } as TopLevelSpec).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
