/**
 * The sentence splitter wyoming-piper 2.4 streams text through (sentence-stream 1.3.0's
 * SentenceBoundaryDetector, its Latin-script rules), written here from its behaviour so the test
 * servers split text as the real one does:
 * - a sentence ends at . ! ? or … (and closing quotes or brackets) only where white space and a
 *   capital letter follow, or white space and a numbered-list item ("2. "); or at a blank line;
 * - a piece ending in a capitalised word of one to three letters and a period ("M.", "Non.", "Dr.")
 *   may be an abbreviation: it is held and joined to what follows until a piece does not end so;
 * - a sentence is given out only once the next one's first letter has come (add), the last at
 *   finish(). Its markdown-asterisk removal is left out: the tests' texts have none.
 */
const BOUNDARY =
  // 1.3.0's pattern binds its + to the last ender alone: "..." is three single enders, the last one kept.
  /(?:[.!?…]|[؟]|[।॥]+)['")\]}\u2019\u201d»]*(?=\s+[\p{Lu}\p{Lt}\p{Lo}]|(?:\s+\d+[.)]{1,2}\s+))/su;
const BLANK_LINES = /(?:\r?\n){2,}/;
/** Python's \b is Unicode-aware; a look-behind on letters and digits stands in for it. */
const ABBREVIATION = /(?<![\p{L}\p{N}_])\p{Lu}(?:\p{L}{1,2})?\.$/u;

const looksAbbreviated = (text: string): boolean => ABBREVIATION.test(text.slice(-5));

export class SentenceSplitter {
  private remaining = '';
  private current = '';

  /** Adds streamed text; returns the sentences it completed. */
  add(chunk: string): string[] {
    const out: string[] = [];
    this.remaining += chunk;
    while (this.remaining) {
      const blank = BLANK_LINES.exec(this.remaining);
      const punct = BOUNDARY.exec(this.remaining);
      const first = blank && punct ? (blank.index < punct.index ? blank : punct) : (blank ?? punct);
      if (!first) break;
      const end = first.index + first[0].length;
      const piece = this.remaining.slice(0, end);
      if (!this.current) {
        if (looksAbbreviated(piece)) this.current = piece;
        else if (piece.trim()) out.push(piece.trim());
      } else if (looksAbbreviated(this.current)) this.current += piece;
      else {
        if (this.current.trim()) out.push(this.current.trim());
        this.current = piece;
      }
      if (this.current && !looksAbbreviated(this.current)) {
        if (this.current.trim()) out.push(this.current.trim());
        this.current = '';
      }
      this.remaining = this.remaining.slice(end);
    }
    return out;
  }

  /** The stream ended: whatever is left is the last sentence ('' for none). */
  finish(): string {
    const text = (this.current + this.remaining).trim();
    this.current = '';
    this.remaining = '';
    return text;
  }
}

/** A whole text split at once, as a plain `synthesize` is. */
export function splitSentences(text: string): string[] {
  const s = new SentenceSplitter();
  const out = s.add(text);
  const last = s.finish();
  return last ? [...out, last] : out;
}
