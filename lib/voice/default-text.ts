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
 * The capacity run's built-in text: a short spoken reply of two sentences of under 2 s each, as a
 * voice assistant or a phone line says them. A short reply keeps a trial to a few seconds, so every
 * edge can be tried several times within the run's budget; the second sentence is a little shorter
 * than the first, so a listener served at real time hears no gap. A machine that falls behind
 * cannot hide it in so short a reply: a trial also counts only when it kept pace (see record.ts).
 */
export const CAPACITY_SENTENCES: readonly string[] = ['Votre demande est notée.', 'Merci, à bientôt.'];
