import { compile, type TopLevelSpec } from 'vega-lite';
import { parse, View } from 'vega';

/** Render a Vega-Lite spec to an SVG string in Node: no browser, no network, no canvas. */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const vegaSpec = compile({ ...spec, config: { ...spec.config, font: 'sans-serif', background: 'white' } } as TopLevelSpec).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
