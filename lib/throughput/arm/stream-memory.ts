const MiB = 2 ** 20;

/**
 * A stream's memory before any was measured: a bare onnxruntime process (about 300 MiB here) and
 * a few copies of the model (weights, arena, sessions' buffers); above what was measured for the
 * synthetic voices (430-530 MiB for a 59 MiB model), on purpose.
 */
export function guessedStreamBytes(modelBytes: number): number {
  return 300 * MiB + 8 * modelBytes;
}
