/** The summary's explanatory prose, kept apart from the code that builds its tables. */
export const METHOD =
  "How runs combine: a figure of one run is that run's (95% interval between its rounds: this run, " +
  "not a rerun). Several runs of one machine count as draws, one per run (a run's rounds share its " +
  "moment of the machine): the interval is over the runs' figures, the spread between runs is " +
  "estimated beyond the spread inside them, and 'a rerun' is the 95% prediction of one more run's " +
  'figure (three runs or more make it useful; two give a very wide one). ' +
  "At each K: the best layout, the layouts it cannot be told from (their ratio's interval holds " +
  '1), and its lead over the first layout it is resolved above, paired round by round within each ' +
  'run. Live streams: the least any run answered (every run served that many), with the widest ' +
  "of the runs' rerun ranges. Costs: the price over those figures, their ranges carried through.";
