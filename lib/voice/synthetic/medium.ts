import { DataType } from './onnx-proto.js';
import { GraphBuilder } from './graph.js';
import {
  channelLayerNorm,
  conv1d,
  feedForward,
  resBlock2,
  selfAttention,
  sliceChannels,
  upsample,
  waveNet,
} from './layers.js';
import { Prng } from '../../core/prng.js';

/** Piper medium quality (VITS) hyper-parameters the stand-in mirrors. */
export const MEDIUM = {
  numSymbols: 256,
  hidden: 192,
  encoderLayers: 6,
  heads: 2,
  filter: 768,
  encoderKernel: 3,
  durationFilter: 256,
  durationKernel: 3,
  flows: 4,
  waveNetLayers: 4,
  waveNetKernel: 5,
  decoderChannels: 256,
  upsampleRates: [8, 8, 4],
  upsampleKernels: [16, 16, 8],
  resblockKernels: [3, 5, 7],
  resblockDilations: [
    [1, 2],
    [2, 6],
    [3, 12],
  ],
  hop: 256,
} as const;

export interface MediumGraph {
  builder: GraphBuilder;
  /** Frames per symbol id before length_scale: durations are ceil(table[id] * length_scale). */
  frameTable: Float32Array;
}

/** Frames per symbol: its own seeded stream, so weights can change without moving durations. */
export function drawFrameTable(seed: number, sampleRate: number): Float32Array {
  const rng = new Prng(seed ^ 0x5eed_d0a1);
  // About 50 ms per phoneme and 10 ms per pad at any rate (French read speech is near 60 ms a
  // phoneme with its pad): frames scale with sample rate / hop.
  const framesPerSecond = sampleRate / MEDIUM.hop;
  const table = new Float32Array(MEDIUM.numSymbols);
  for (let id = 0; id < table.length; id += 1) {
    const seconds = id === 0 ? 0.005 + 0.01 * rng.next() : 0.03 + 0.04 * rng.next();
    table[id] = Math.max(0.5, seconds * framesPerSecond);
  }
  return table;
}

/**
 * Text encoder, duration predictor, length regulator, deterministic prior noise, flow (reverse)
 * and HiFi-GAN decoder, with Piper's inputs and output. Relative-position terms of the attention
 * and the stochastic duration predictor's flows are left out: durations come from a table.
 */
export function buildMediumGraph(seed: number, sampleRate: number): MediumGraph {
  const g = new GraphBuilder(new Prng(seed));
  const frameTable = drawFrameTable(seed, sampleRate);
  const ids = g.input('input', DataType.INT64, [1, 'phonemes']);
  g.input('input_lengths', DataType.INT64, [1]);
  const scales = g.input('scales', DataType.FLOAT, [3]);
  const scalar = (i: number): string => g.op('Gather', [scales, g.constInt64('scale_index', [], [i])], { axis: 0 });
  const noiseScale = scalar(0);
  const lengthScale = scalar(1);
  const noiseW = scalar(2);
  // Each stage in the order its parameters are drawn: the seeded weights, and so the voice's bytes, follow it.
  const prior = encodeText(g, ids, noiseW);
  const aligned = regulateLength(g, { ids, lengthScale, frameTable, ...prior });
  const z = reverseFlow(g, priorNoise(g, aligned, noiseScale));
  decode(g, z);
  return { builder: g, frameTable };
}

/** Text encoder, [1, T] ids -> [1, 192, T], and the duration predictor's branch: its output shifts the prior mean. */
function encodeText(g: GraphBuilder, ids: string, noiseW: string): { mean: string; logScale: string } {
  const m = MEDIUM;
  const embedding = g.param('emb', [m.numSymbols, m.hidden], Math.sqrt(3));
  const embedded = g.op('Gather', [embedding, ids], { axis: 0 }); // [1, T, 192]
  let x = g.op('Transpose', [embedded], { perm: [0, 2, 1] });
  for (let l = 0; l < m.encoderLayers; l += 1) {
    x = channelLayerNorm(g, g.op('Add', [x, selfAttention(g, x, m.hidden, m.heads)]), m.hidden);
    x = channelLayerNorm(g, g.op('Add', [x, feedForward(g, x, m.hidden, m.filter, m.encoderKernel)]), m.hidden);
  }
  const mean = conv1d(g, x, m.hidden, m.hidden, { gain: 0.5 });
  const logScale = conv1d(g, x, m.hidden, m.hidden, { gain: 0.1 });
  // A prosody term, so the duration predictor's compute is real.
  let dp = g.op('Relu', [conv1d(g, x, m.hidden, m.durationFilter, { kernel: m.durationKernel })]);
  dp = channelLayerNorm(g, dp, m.durationFilter);
  dp = g.op('Relu', [conv1d(g, dp, m.durationFilter, m.durationFilter, { kernel: m.durationKernel })]);
  dp = channelLayerNorm(g, dp, m.durationFilter);
  dp = conv1d(g, dp, m.durationFilter, 1); // [1, 1, T]
  const shifted = g.op('Add', [
    mean,
    g.op('Mul', [g.op('Tanh', [dp]), g.op('Mul', [noiseW, g.constFloat('prosody', [], [0.1])])]),
  ]);
  return { mean: shifted, logScale };
}

interface Regulated {
  frames: string;
  meanFrames: string;
  logScaleFrames: string;
}

/** Length regulator: durations = ceil(table[id] * length_scale), path[T, F] built from their cumulative sum. */
function regulateLength(
  g: GraphBuilder,
  p: { ids: string; lengthScale: string; frameTable: Float32Array; mean: string; logScale: string },
): Regulated {
  const table = g.constFloat('frame_table', [MEDIUM.numSymbols], p.frameTable);
  const durations = g.op('Ceil', [g.op('Mul', [g.op('Gather', [table, p.ids], { axis: 0 }), p.lengthScale])]); // [1, T]
  const ends = g.op('CumSum', [durations, g.constInt64('axis1', [], [1])]);
  const starts = g.op('Sub', [ends, durations]);
  const totalFrames = g.op('ReduceSum', [durations], { keepdims: 0 });
  const frames = g.op('Range', [g.constFloat('zero', [], [0]), totalFrames, g.constFloat('one', [], [1])]); // [F]
  const column = g.op('Reshape', [frames, g.constInt64('col', [2], [-1, 1])]); // [F, 1]
  const startsRow = g.op('Reshape', [starts, g.constInt64('row', [2], [1, -1])]); // [1, T]
  const endsRow = g.op('Reshape', [ends, g.constInt64('row', [2], [1, -1])]);
  const inside = g.op('And', [g.op('GreaterOrEqual', [column, startsRow]), g.op('Less', [column, endsRow])]); // [F, T]
  const path = g.op('Transpose', [g.op('Cast', [inside], { to: DataType.FLOAT })], { perm: [1, 0] }); // [T, F]
  return { frames, meanFrames: g.op('MatMul', [p.mean, path]), logScaleFrames: g.op('MatMul', [p.logScale, path]) };
}

/** Deterministic stand-in for Gaussian noise: sin(f * a_c + b_c), a fixed function of frame and channel. */
function priorNoise(g: GraphBuilder, r: Regulated, noiseScale: string): string {
  const m = MEDIUM;
  const rates = Float32Array.from({ length: m.hidden }, (_, c) => 0.37 + 0.011 * c);
  const phases = Float32Array.from({ length: m.hidden }, (_, c) => 1.3 * c);
  const framesRow = g.op('Reshape', [r.frames, g.constInt64('row', [3], [1, 1, -1])]); // [1, 1, F]
  const noise = g.op('Sin', [
    g.op('Add', [
      g.op('Mul', [framesRow, g.constFloat('noise_rate', [1, m.hidden, 1], rates)]),
      g.constFloat('noise_phase', [1, m.hidden, 1], phases),
    ]),
  ]);
  return g.op('Add', [r.meanFrames, g.op('Mul', [g.op('Mul', [noise, g.op('Exp', [r.logScaleFrames])]), noiseScale])]);
}

/** Flow, reverse direction: flip channels, then undo a mean-only residual coupling. */
function reverseFlow(g: GraphBuilder, input: string): string {
  const m = MEDIUM;
  const half = m.hidden / 2;
  const reversed = Array.from({ length: m.hidden }, (_, c) => m.hidden - 1 - c);
  let z = input;
  for (let f = 0; f < m.flows; f += 1) {
    z = g.op('Gather', [z, g.constInt64('flip', [m.hidden], reversed)], { axis: 1 });
    const x0 = sliceChannels(g, z, 0, half);
    const x1 = sliceChannels(g, z, half, m.hidden);
    const h = conv1d(g, x0, half, m.hidden);
    const shift = conv1d(g, waveNet(g, h, m.hidden, m.waveNetLayers, m.waveNetKernel), m.hidden, half, { gain: 0.1 });
    z = g.op('Concat', [x0, g.op('Sub', [x1, shift])], { axis: 1 });
  }
  return z;
}

/** HiFi-GAN decoder: [1, 192, F] -> [1, 1, F * 256], Piper's output. */
function decode(g: GraphBuilder, z: string): void {
  const m = MEDIUM;
  let y = conv1d(g, z, m.hidden, m.decoderChannels, { kernel: 7 });
  let channels: number = m.decoderChannels;
  m.upsampleRates.forEach((rate, i) => {
    const out = channels / 2;
    y = upsample(g, g.op('LeakyRelu', [y], { alpha: { float: 0.1 } }), {
      cin: channels,
      cout: out,
      kernel: m.upsampleKernels[i] ?? rate * 2,
      stride: rate,
    });
    channels = out;
    let sum: string | undefined;
    m.resblockKernels.forEach((k, j) => {
      const r = resBlock2(g, y, channels, k, m.resblockDilations[j] ?? [1]);
      sum = sum === undefined ? r : g.op('Add', [sum, r]);
    });
    y = g.op('Mul', [sum ?? y, g.constFloat('third', [], [1 / m.resblockKernels.length])]);
  });
  y = g.op('LeakyRelu', [y], { alpha: { float: 0.01 } });
  y = g.op('Tanh', [conv1d(g, y, channels, 1, { kernel: 7, bias: false, gain: 0.5 })]);
  g.op('Reshape', [y, g.constInt64('out_shape', [4], [1, 1, 1, -1])], {}, 'output');
  g.output('output', DataType.FLOAT, [1, 1, 1, 'samples']);
}

/**
 * Multiply-accumulates of the stand-in, from its hyper-parameters: per output frame (flow and
 * decoder) and per input id (encoder and duration branch, for a sequence of `ids` ids).
 */
export function mediumMacs(ids: number): { perFrame: number; perId: number } {
  const m = MEDIUM;
  const h = m.hidden;
  const perLayer = 4 * h * h + 2 * ids * h + 2 * h * m.filter * m.encoderKernel;
  const duration =
    h * m.durationFilter * m.durationKernel + m.durationFilter * m.durationFilter * m.durationKernel + m.durationFilter;
  const perId = m.encoderLayers * perLayer + 2 * h * h + duration;
  const half = h / 2;
  const waveNet = m.waveNetLayers * 2 * h * h * m.waveNetKernel + (m.waveNetLayers - 1) * 2 * h * h + h * h;
  const flow = m.flows * (half * h + waveNet + h * half);
  let decoder = h * m.decoderChannels * 7;
  let channels: number = m.decoderChannels;
  let samplesPerFrame = 1;
  m.upsampleRates.forEach((rate, i) => {
    const out = channels / 2;
    decoder += samplesPerFrame * channels * out * (m.upsampleKernels[i] ?? rate * 2);
    samplesPerFrame *= rate;
    const kernels = m.resblockKernels.reduce((a, k) => a + k, 0);
    decoder += samplesPerFrame * 2 * out * out * kernels;
    channels = out;
  });
  decoder += samplesPerFrame * channels * 7;
  // The length regulator's two [192 x T] by [T x F] products.
  return { perFrame: flow + decoder + 2 * h * ids, perId };
}
