/** The summary's explanatory prose, kept apart from the code that builds its tables. */
export const METHOD =
  "How runs combine: a figure of one run is that run's (95% interval between its rounds). Several " +
  "runs of one machine pool their rounds while every run's interval overlaps every other's; once " +
  'two do not, the machine moved between them and each run counts as one draw (wider, and said). ' +
  "At each K: the best layout, the layouts it cannot be told from (their ratio's interval holds " +
  '1), and its lead over the first layout it is resolved above, paired round by round within each ' +
  'run. Live streams: the least any run answered (every run served that many), with the widest ' +
  "of the runs' rerun ranges. Costs: the price over those figures, their ranges carried through.";
