// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderSvg } from '../../lib/report/svg.js';

describe('renderSvg', () => {
  it('names every legend entry whole: an arm label longer than 160 px is not cut', async () => {
    const arm = 'synthetic-siwis-medium K=2 T=1 pinned process, onnxruntime model';
    const svg = await renderSvg({
      data: {
        values: [
          { x: 1, y: 2, arm },
          { x: 2, y: 3, arm: 'short' },
        ],
      },
      mark: 'point',
      encoding: {
        x: { field: 'x', type: 'quantitative' },
        y: { field: 'y', type: 'quantitative' },
        color: { field: 'arm', type: 'nominal', title: null },
      },
    });
    assert.ok(svg.includes(`>${arm}<`), 'the whole label is in the legend');
    assert.doesNotMatch(svg, /…/, 'no label ends in an ellipsis');
  });
});
