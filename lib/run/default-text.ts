/**
 * The built-in text: French sentences written for this project, about 20 seconds of speech per
 * pass with the synthetic stand-ins. A fixed text, so its cost never drifts between runs.
 */
export const DEFAULT_SENTENCES: readonly string[] = [
  'Le train de sept heures quarante partira du quai numéro trois avec dix minutes de retard.',
  'Nous vous prions de bien vouloir excuser la gêne occasionnée par les travaux sur la voie.',
  'Demain matin, le ciel restera couvert sur la côte, avec quelques éclaircies en fin de journée.',
];
