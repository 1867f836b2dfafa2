// Texts that once made chunking quadratic (issue 12), sized by the caller: the chunker's unit tests
// prove linearity on small sizes, `npm run bench:chunk` measures the large ones.

/** `chars` characters made of `piece(0)`, `piece(1)`, ... (the last one cut short). */
export function repeated(chars: number, piece: (i: number) => string): string {
  const parts: string[] = [];
  for (let n = 0, i = 0; n < chars; i++) {
    const p = piece(i);
    parts.push(p);
    n += p.length;
  }
  return parts.join('').slice(0, chars);
}

/** One line of words and no sentence punctuation at all. */
export function lineWithoutPunctuation(chars: number): string {
  return repeated(chars, (i) => `word${i} `);
}

/** One line of short sentences. */
export function lineOfSentences(chars: number): string {
  return repeated(chars, (i) => `The crane ${i} was inspected by the supplier on Monday. `);
}

/** One line where almost every full stop follows an abbreviation or an initial. */
export function abbreviationHeavy(chars: number): string {
  return repeated(chars, (i) => `Dr. A. B. Smith et al. vs. Corp. Inc. e.g. i.e. No. ${i} cf. Fig. ${i % 9}. `);
}

/** One "word": no whitespace at all. */
export function hugeToken(chars: number): string {
  return repeated(chars, (i) => `${i % 10}abcdefgh`);
}
