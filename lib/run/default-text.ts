/**
 * The built-in text: French sentences written for this project, about 20 seconds of speech per
 * pass with the synthetic stand-ins. A fixed text, so its cost never drifts between runs.
 */
export const DEFAULT_SENTENCES: readonly string[] = [
  'Le train de sept heures quarante partira du quai numéro trois avec dix minutes de retard.',
  'Nous vous prions de bien vouloir excuser la gêne occasionnée par les travaux sur la voie.',
  'Demain matin, le ciel restera couvert sur la côte, avec quelques éclaircies en fin de journée.',
];

/**
 * The capacity run's built-in text: a short spoken reply of three sentences of under 2 s each, as
 * a voice assistant or a phone line says them. Short sentences keep a trial to a few seconds, so
 * every edge can be tried several times in a few minutes; each sentence is a little shorter than
 * the one before, so a listener served at real time hears no gap.
 */
export const CAPACITY_SENTENCES: readonly string[] = [
  'Votre demande est notée.',
  'Un agent vous rappelle.',
  'Merci, à bientôt.',
];
