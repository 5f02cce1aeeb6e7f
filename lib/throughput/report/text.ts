/** The throughput reports' explanatory prose, kept apart from the code that lays the reports out. */
export const REPORT_TEXT = {
  synthetic: [
    'Synthetic voices cost what a Piper medium voice costs, but they are not speech;',
    "never quote their figures as a real voice's.",
  ].join(' '),
  fewPasses: (passes: number, min: number): string =>
    `With ${passes} passes (fewer than ${min}), each p95 in the archive is the largest value seen, not a percentile.`,
  noisy:
    'NOISY arms: the spread of their per-pass aggregates is over 10% of the median; run again on a quieter machine.',
  fewRounds: (rounds: number, min: number): string =>
    [
      `With ${rounds} round no interval exists and no layout is named a winner:`,
      `an interval that holds the drift between rounds needs at least ${min} rounds.`,
    ].join(' '),
  engines: (onnxruntime: string, sherpa: string): string =>
    [
      'Engines are compared at the same scope only. sherpa-onnx phonemizes inside its own call, so its passes are',
      'text to audio; so are the onnxruntime-node arms compared with it (the WebAssembly phonemizer inside the',
      `timed pass, its share shown as "phonemize N%"). Settings: onnxruntime-node: ${onnxruntime}; sherpa-onnx: ${sherpa}.`,
    ].join(' '),
  method: [
    'Per stream, throughput is seconds of audio per second of compute (x real time), the median over passes.',
    "The aggregate is the speech the machine produced: per pass, every stream's audio over the pass's span",
    '(first start to last end), then the median over passes. Its 95% interval comes from the spread between',
    "rounds (a t interval on the logs of each round's median), so drift between minutes is inside it; it is",
    "this run's interval, and a rerun moves more (summary over several runs gives that spread). Layouts are",
    'compared by the ratio of their aggregates round by round, with its own 95% interval. The verdict judges',
    "only the pairs its sentences quote, each on its voice's family interval (widened so that all of a",
    "voice's claims hold together at 95%): the table below says which pairs those are.",
  ].join(' '),
};
