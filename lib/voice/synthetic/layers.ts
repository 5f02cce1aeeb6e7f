import type { GraphBuilder } from './graph.js';

/** Weights scaled so a unit-variance input gives an output of variance about gain^2. */
function bound(fanIn: number, gain: number): number {
  return gain * Math.sqrt(3 / fanIn);
}

export interface ConvOptions {
  kernel?: number;
  dilation?: number;
  bias?: boolean;
  gain?: number;
}

/** Conv1d on [1, C, T] with "same" padding (odd kernels). */
export function conv1d(g: GraphBuilder, x: string, cin: number, cout: number, o: ConvOptions = {}): string {
  const k = o.kernel ?? 1;
  const d = o.dilation ?? 1;
  const w = g.param('conv_w', [cout, cin, k], bound(cin * k, o.gain ?? 1));
  const inputs = [x, w];
  if (o.bias ?? true) inputs.push(g.param('conv_b', [cout], 0.01));
  const pad = (d * (k - 1)) / 2;
  return g.op('Conv', inputs, { kernel_shape: [k], dilations: [d], pads: [pad, pad], strides: [1] });
}

/** ConvTranspose1d that multiplies the length by `stride` exactly (HiFi-GAN's upsampler). */
export function upsample(
  g: GraphBuilder,
  x: string,
  { cin, cout, kernel, stride }: { cin: number; cout: number; kernel: number; stride: number },
): string {
  const w = g.param('up_w', [cin, cout, kernel], bound(cin * (kernel / stride), 1));
  const b = g.param('up_b', [cout], 0.01);
  const pad = (kernel - stride) / 2;
  return g.op('ConvTranspose', [x, w, b], { kernel_shape: [kernel], strides: [stride], pads: [pad, pad] });
}

/** Layer norm over the channel axis of [1, C, T] (opset 15 has no LayerNormalization). */
export function channelLayerNorm(g: GraphBuilder, x: string, channels: number): string {
  const mean = g.op('ReduceMean', [x], { axes: [1], keepdims: 1 });
  const centred = g.op('Sub', [x, mean]);
  const variance = g.op('ReduceMean', [g.op('Mul', [centred, centred])], { axes: [1], keepdims: 1 });
  const eps = g.constFloat('eps', [], [1e-5]);
  const normed = g.op('Div', [centred, g.op('Sqrt', [g.op('Add', [variance, eps])])]);
  const gamma = g.paramFilled('ln_gamma', [1, channels, 1], 1);
  const beta = g.paramFilled('ln_beta', [1, channels, 1], 0);
  return g.op('Add', [g.op('Mul', [normed, gamma]), beta]);
}

/** Multi-head self-attention on [1, C, T] with 1x1 projections, as VITS's text encoder. */
export function selfAttention(g: GraphBuilder, x: string, channels: number, heads: number): string {
  const headDim = channels / heads;
  const q = conv1d(g, x, channels, channels);
  const k = conv1d(g, x, channels, channels);
  const v = conv1d(g, x, channels, channels);
  const split = g.constInt64('heads_shape', [4], [1, heads, headDim, -1]);
  const qh = g.op('Transpose', [g.op('Reshape', [q, split])], { perm: [0, 1, 3, 2] }); // [1,h,T,d]
  const kh = g.op('Reshape', [k, split]); // [1,h,d,T]
  const vh = g.op('Transpose', [g.op('Reshape', [v, split])], { perm: [0, 1, 3, 2] }); // [1,h,T,d]
  const scale = g.constFloat('attn_scale', [], [1 / Math.sqrt(headDim)]);
  const scores = g.op('MatMul', [g.op('Mul', [qh, scale]), kh]); // [1,h,T,T]
  const probs = g.op('Softmax', [scores], { axis: -1 });
  const context = g.op('Transpose', [g.op('MatMul', [probs, vh])], { perm: [0, 1, 3, 2] }); // [1,h,d,T]
  const merged = g.op('Reshape', [context, g.constInt64('merge_shape', [3], [1, channels, -1])]);
  return conv1d(g, merged, channels, channels, { gain: 0.5 });
}

/** The encoder's feed-forward block: conv k, ReLU, conv k. */
export function feedForward(g: GraphBuilder, x: string, channels: number, filter: number, kernel: number): string {
  const h = g.op('Relu', [conv1d(g, x, channels, filter, { kernel })]);
  return conv1d(g, h, filter, channels, { kernel, gain: 0.5 });
}

/**
 * WaveNet stack of a residual coupling layer: per layer a dilated conv whose halves gate each
 * other (tanh x sigmoid), then a 1x1 conv split into residual and skip parts. Each half is its
 * own conv: the same weights and multiply-adds as one conv of twice the width.
 */
export function waveNet(g: GraphBuilder, x: string, hidden: number, layers: number, kernel: number): string {
  let h = x;
  let skip: string | undefined;
  for (let l = 0; l < layers; l += 1) {
    const a = conv1d(g, h, hidden, hidden, { kernel });
    const b = conv1d(g, h, hidden, hidden, { kernel });
    const acts = g.op('Mul', [g.op('Tanh', [a]), g.op('Sigmoid', [b])]);
    const last = l === layers - 1;
    if (!last) {
      const res = conv1d(g, acts, hidden, hidden, { gain: 0.5 });
      h = g.op('Add', [h, res]);
    }
    const sk = conv1d(g, acts, hidden, hidden, { gain: 0.5 });
    skip = skip === undefined ? sk : g.op('Add', [skip, sk]);
  }
  if (skip === undefined) throw new Error('waveNet needs at least one layer');
  return skip;
}

/** HiFi-GAN residual block type 2: per dilation, LeakyReLU then a dilated conv, added back. */
export function resBlock2(
  g: GraphBuilder,
  x: string,
  channels: number,
  kernel: number,
  dilations: readonly number[],
): string {
  let y = x;
  for (const d of dilations) {
    const t = conv1d(g, g.op('LeakyRelu', [y], { alpha: { float: 0.1 } }), channels, channels, {
      kernel,
      dilation: d,
      gain: 0.5,
    });
    y = g.op('Add', [y, t]);
  }
  return y;
}

/** Slice channels [from, to) of [1, C, T]. */
export function sliceChannels(g: GraphBuilder, x: string, from: number, to: number): string {
  return g.op('Slice', [
    x,
    g.constInt64('starts', [1], [from]),
    g.constInt64('ends', [1], [to]),
    g.constInt64('axes', [1], [1]),
  ]);
}
