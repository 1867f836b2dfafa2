// Names with no legal form or honorific to vouch for them: a product or tool name, a run in
// mid-sentence with a word in mixed case ("JavaScript", "iOS", "GitHub Sponsors"), and a person's
// full name whose first word is a known first name ("Carla Mendes") or that the document's own
// author field gives. Capitals alone make no name (a contract capitalises its defined terms, a
// title its words); the rules below also remove the other reasons a word is capitalised (a
// sentence's first word, a title-case heading, "Listing 8-1", months, days, nationalities, places).
//
// These are per-passage candidates: extraction runs per item, with no view of the folder. What
// makes a candidate evidence is the folder: a name counts between two items only when both
// mention it (shared_entity), discounted by how many items do (scoring/signals.ts), so a word
// one file capitalises by habit relates nothing. The precision of names as they count (in two
// files or more) is measured by test/bench/names.eval.ts.

import { lexiconTags } from '../words.ts';
import type { Found } from './found.ts';

const WORD = /(?<![\p{L}\p{N}_'’.\/@#$-])(?:\p{Lu}\p{Ll}+(?:\p{Lu}\p{Ll}*)*|\p{Ll}+\p{Lu}[\p{L}]*)(?![\p{L}\p{N}_@'’]|-\p{L}|\.\p{L})/gu;
/** At most this many capitalised words make one name ("Visual Studio Code Insiders"). */
const MAX_WORDS = 4;
const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
/** Capitalised for a reason other than naming a product: time, people's origins, places, grammar. */
const NOT_PRODUCT_TAGS = new Set([
  'Month', 'WeekDay', 'Demonym', 'Language', 'Country', 'City', 'Region', 'Place', 'Pronoun', 'Honorific',
  'Determiner', 'Preposition', 'Conjunction', 'Date', 'Holiday', 'Possessive', 'QuestionWord', 'Expression',
  'Cardinal', 'Ordinal', 'TextValue',
]);
/** Languages compromise's word list does not tag: capitalised because they are languages, not products. */
const LANGUAGES = new Set([
  'english', 'spanish', 'portuguese', 'latin', 'greek', 'hindi', 'arabic', 'japanese', 'korean', 'russian', 'italian',
  'dutch', 'swedish', 'polish', 'turkish', 'hebrew', 'persian', 'bengali', 'urdu', 'vietnamese', 'indonesian', 'ukrainian',
  'czech', 'danish', 'finnish', 'norwegian', 'romanian', 'hungarian', 'thai', 'swahili', 'catalan',
]);
/** A run ending in one of these names a role or a part of an organisation ("Project Engineer", "Facilities Team"), not a product. */
const ROLE_OR_UNIT = new Set([
  'team', 'teams', 'department', 'office', 'committee', 'board', 'group', 'division', 'unit', 'desk', 'engineer', 'manager',
  'officer', 'director', 'lead', 'coordinator', 'supervisor', 'assistant', 'analyst', 'specialist', 'administrator', 'procurement',
]);
/** A lower-case letter followed by a capital, or two capitals followed by a lower-case letter: "GitHub", "iOS", "JSONValue". */
const MIXED_CASE = /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}/u;
/** A capitalised word before a number is a reference: "Listing 8-1", "Chapter 3", "Table 2", "Step 4". */
const BEFORE_NUMBER = /^[^\S\n]+(?:\d|[IVX]+\b|[A-Z]\b)/u;
const SPECIES_AFTER = /^[^\S\n]\p{Ll}{2,}(?:is|us|um|ae|ii|ensis|ana|ica|ans|oides|ata|ens|li|ei)\b/u;
/** Title-case words that open descriptions rather than names. */
const LEADING_NOISE = new Set(['the', 'a', 'an', 'our', 'your', 'my', 'this', 'that', 'these', 'those', 'its', 'their', 'see', 'use', 'using', 'with', 'and', 'or', 'in', 'on', 'at', 'of', 'for', 'to', 'by', 'from', 'if', 'when', 'note', 'also']);

interface Word {
  text: string;
  start: number;
  end: number;
}

function tagsOf(word: string): readonly string[] {
  return lexiconTags(word.toLowerCase());
}

/** Nothing but a sentence end, a line start, a list marker or a label before `at`. */
function opensSentence(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 8), at);
  return /(?:^|[.!?:;|>\n•]|\n[^\S\n]*(?:[-*+]|\d+[.)]|\[[ x]\]))[^\S\n]*["'“‘(\[*_]*$/u.test(before) || (at < 8 && /^[^\S\n]*["'“‘(\[*_]*$/u.test(before));
}

/** A line where most words are capitalised is a heading or a table header, not prose. */
function titleCaseLines(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    const words = line.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
    const capitals = words.filter((w) => /^\p{Lu}/u.test(w)).length;
    const small = words.filter((w) => /^(?:a|an|the|and|or|of|in|on|to|for|with|at|by|from|as|is|vs)$/.test(w)).length;
    if (words.length >= 2 && capitals >= 0.75 * (words.length - small)) ranges.push([start, start + line.length]);
    start += line.length + 1;
  }
  // A title in quotes ("see “Comparing the Guess to the Secret Number”") is a title too.
  for (const m of text.matchAll(/[“"‘]([^”"’\n]{3,120})[”"’]/gu)) {
    const words = m[1]!.match(/[\p{L}][\p{L}'’-]*/gu) ?? [];
    if (words.filter((w) => /^\p{Lu}/u.test(w)).length >= Math.max(1, 0.5 * words.length)) ranges.push([m.index, m.index + m[0].length]);
  }
  return ranges;
}

function isPersonRun(words: Word[]): boolean {
  if (words.length < 2 || words.length > 3) return false;
  if (!tagsOf(words[0]!.text).some((tag) => NAME_TAGS.has(tag))) return false;
  const last = words[words.length - 1]!.text;
  const tags = tagsOf(last);
  // "Rose Garden", "Grace Period": a common noun last is not a surname.
  return tags.length === 0 || tags.includes('LastName') || tags.some((tag) => NAME_TAGS.has(tag));
}

/** A word that could be capitalised only because of where it stands. */
function isCommonWord(word: string): boolean {
  return tagsOf(word).length > 0 && !/\p{Ll}\p{Lu}/u.test(word);
}

export function findNames(text: string, authors: readonly string[] = []): Found[] {
  const found: Found[] = [];
  const headings = titleCaseLines(text).sort((a, b) => a[0] - b[0]);
  // Binary search: a long contract has thousands of heading lines and tens of thousands of words.
  const inHeading = (at: number) => {
    let lo = 0;
    let hi = headings.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (headings[mid]![0] <= at) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let k = hi; k >= 0 && k >= hi - 8; k--) if (at < headings[k]![1]) return true;
    return false;
  };
  const runs: Word[][] = [];
  let run: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const word = { text: m[0], start: m.index, end: m.index + m[0].length };
    const previous = run[run.length - 1];
    if (previous !== undefined && /^(?:[^\S\n]|[^\S\n]of[^\S\n])$/u.test(text.slice(previous.end, word.start)) && run.length < MAX_WORDS) {
      run.push(word);
      continue;
    }
    if (run.length > 0) runs.push(run);
    run = [word];
  }
  if (run.length > 0) runs.push(run);

  const midSentence = new Set<string>();
  for (const words of runs) for (const [i, w] of words.entries()) if (i > 0 || !opensSentence(text, w.start)) midSentence.add(w.text);

  for (let words of runs) {
    if (inHeading(words[0]!.start)) continue;
    const first = words[0]!;
    if (isPersonRun(words)) {
      const name = words.map((w) => w.text).join(' ');
      found.push({ type: 'person', surface: name, key: `person:${name.toLowerCase()}`, start: first.start, end: words[words.length - 1]!.end });
      continue;
    }
    // A sentence's first word is capitalised whatever it is ("Finally", "Cancer survivors"): it
    // starts a name only if it is CamelCase or the passage also capitalises it in mid-sentence.
    if (opensSentence(text, first.start) && !/\p{Ll}\p{Lu}/u.test(first.text) && (isCommonWord(first.text) || !midSentence.has(first.text))) words = words.slice(1);
    while (words.length > 0 && LEADING_NOISE.has(words[0]!.text.toLowerCase())) words = words.slice(1);
    while (words.length > 0 && tagsOf(words[words.length - 1]!.text).some((tag) => NOT_PRODUCT_TAGS.has(tag))) words = words.slice(0, -1);
    if (words.length === 0) continue;
    if (words.some((w) => LANGUAGES.has(w.text.toLowerCase()) || tagsOf(w.text).some((tag) => NOT_PRODUCT_TAGS.has(tag) || NAME_TAGS.has(tag)))) continue;
    const end = words[words.length - 1]!.end;
    if (BEFORE_NUMBER.test(text.slice(end, end + 6))) continue;
    // "Bacillus subtilis", "Arabidopsis thaliana": a genus before its species is an organism.
    if (SPECIES_AFTER.test(text.slice(end, end + 30))) continue;
    // "mRNA", "microRNA", "cDNA" are molecules, not products.
    if (/(?:RNA|DNA)s?$/u.test(words[words.length - 1]!.text)) continue;
    const name = text.slice(words[0]!.start, end);
    if (name.length < 3) continue;
    // compromise knows some companies by name ("Google"): an organisation, not a product, and
    // without a legal form not one the rules claim (organisations.ts).
    if (words.length === 1 && tagsOf(name).includes('Organization')) continue;
    if (ROLE_OR_UNIT.has(words[words.length - 1]!.text.toLowerCase())) continue;
    // Capitals alone do not make a name: contracts capitalise their defined terms ("Agreement",
    // "Effective Date", "Confidential Information"), titles and emphasis capitalise common words.
    // A product or tool name counts when a word of it is written in mixed case ("GitHub",
    // "JavaScript", "iOS", "JoinHandle"), which no common word is.
    if (!words.some((word) => MIXED_CASE.test(word.text))) continue;
    found.push({ type: 'product', surface: name, key: `product:${name.toLowerCase()}`, start: words[0]!.start, end });
  }

  // The document's author field says these are people, wherever the text writes them.
  for (const author of authors) {
    const name = author.trim();
    if (name.length < 3 || name.length > 80) continue;
    for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
      found.push({ type: 'person', surface: name, key: `person:${name.toLowerCase().replace(/\s+/g, ' ')}`, start: at, end: at + name.length });
    }
  }
  return found;
}
