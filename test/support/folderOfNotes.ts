// A folder of N notes as a person's knowledge base grows one (issue 32's bench:folder): real
// sentences (SciFact abstracts, CUAD contracts, the open-source guides in ../shared/eval, read at run
// time and never copied into the repository), 1-5 KB a note, in nested folders, with front matter,
// wiki-links and Markdown links between notes, people, organisations and project identifiers that
// recur across notes, figures that agree and figures that differ, and a few PDFs and DOCX files
// (300 per 100,000 files). Everything follows from the seed, so a run can be repeated exactly.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeDocx, makePdf, pdfText, wPara, wRun } from './documentBuilders.ts';
import { seededRandom } from './generateCorpus.ts';
import { EVAL_ROOT } from './tempFolder.ts';

/** PDFs and DOCX files per 100,000 files of the folder (at least one of each). */
const BINARIES_PER_100K = 300;
const MIN_NOTE_BYTES = 1024;
const MAX_NOTE_BYTES = 5 * 1024;

const FIRST_NAMES = 'Lena Daniel Priya Tomasz Aiko Mateo Ingrid Kwame Sofia Rahul Elena Jonas Mei Oluwaseun Clara Henrik Yusuf Marta Arjun Nadia Felix Amara Lucas Hana Tobias Zainab Pedro Greta Ibrahim Noor'.split(' ');
const LAST_NAMES = 'Fischer Okafor Raman Nowak Tanaka Alvarez Berg Mensah Rossi Gupta Petrova Weber Chen Adeyemi Moreau Lindqvist Demir Kowalski Iyer Haddad Braun Diallo Silva Sato Keller Rahman Costa Novak Aziz Larsen'.split(' ');
const ORG_WORDS = 'Halden Northgate Larkspur Brightwater Corvid Meridian Ashford Kestrel Solano Tamsin Veridian Harrow Quayside Oakmere Pellucid Rowan Stellan Thornbury Ulric Wexford'.split(' ');
const ORG_KINDS = 'Instruments Logistics Biotech Analytics Holdings Therapeutics Systems Partners Laboratories Energy'.split(' ');
const LEGAL_FORMS = ['Ltd', 'GmbH', 'Inc.', 'plc', 'LLC'];
const WORKS = ['refurbishment', 'trial', 'audit', 'migration', 'licence review', 'cohort study', 'installation', 'renewal'];
const ASSETS = ['gantry crane', 'sequencer', 'cold store', 'conveyor', 'mass spectrometer', 'data platform', 'dock leveller', 'imaging suite'];
const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** Where a note's text comes from: one of the three shared corpora, each a long run of sentences in reading order. */
interface Source {
  area: string;
  sentences: string[];
}

interface Project {
  id: string;
  name: string;
  slug: string;
  source: Source;
  /** Where in its source the project's notes take their sentences from: notes of one project read alike. */
  anchor: number;
  people: string[];
  organisation: string;
  budget: number;
  completed: string;
}

export interface FolderOfNotes {
  /** Every file written, relative to the folder, in the order written. */
  files: string[];
  /** The Markdown notes among them (the ones a person edits, renames and deletes). */
  notes: string[];
  pdfs: number;
  docx: number;
  bytes: number;
  /** Searches a person would type in this folder: project names and identifiers, people, phrases of its text. */
  queries: string[];
}

/** Sentences of 40-320 characters that read as prose: not headings, not capitals, not numbered clauses alone. */
function proseSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => {
      if (sentence.length < 40 || sentence.length > 320) return false;
      const letters = sentence.replace(/[^A-Za-zÀ-ÿ]/g, '');
      if (letters.length < sentence.length * 0.6) return false;
      const capitals = letters.replace(/[^A-Z]/g, '').length;
      return capitals < letters.length * 0.3 && !/[[\]{}|#`<>*_]/.test(sentence);
    });
}

function readSources(evalRoot: string): Source[] {
  const scifact = readFileSync(path.join(evalRoot, 'scifact', 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const { text } = JSON.parse(line) as { text: string };
      return proseSentences(text);
    });
  const contractsDir = path.join(evalRoot, 'cuad', 'full_contract_txt');
  const contracts = readdirSync(contractsDir)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .flatMap((name) => proseSentences(readFileSync(path.join(contractsDir, name), 'utf8')));
  const guidesDir = path.join(evalRoot, 'knowledge-bases');
  const guides = readdirSync(guidesDir)
    .sort()
    .flatMap((language) =>
      readdirSync(path.join(guidesDir, language))
        .filter((name) => name.endsWith('.md'))
        .sort()
        .flatMap((name) => {
          const markdown = readFileSync(path.join(guidesDir, language, name), 'utf8').replace(/^---[\s\S]*?\n---\n/, '');
          const prose = markdown
            .split('\n')
            .filter((line) => !/^\s*(#|>|-|\*|\||!|<|\d+\.)/.test(line))
            .join(' ')
            .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
          return proseSentences(prose);
        }),
    );
  return [
    { area: 'research', sentences: scifact },
    { area: 'contracts', sentences: contracts },
    { area: 'guides', sentences: guides },
  ];
}

const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const euros = (amount: number) => `EUR ${amount.toLocaleString('en-GB')}`;
/** Helvetica's WinAnsi encoding holds Latin-1: anything else in a PDF line becomes '?'. */
const latin1 = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

function makeProjects(count: number, sources: Source[], random: () => number): Project[] {
  const people = Array.from({ length: Math.max(30, Math.ceil(count / 4)) }, () => `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`);
  const organisations = Array.from({ length: Math.max(10, Math.ceil(count / 10)) }, () => `${pick(random, ORG_WORDS)} ${pick(random, ORG_KINDS)} ${pick(random, LEGAL_FORMS)}`);
  return Array.from({ length: count }, (_, n) => {
    // Research notes are the most common, as SciFact is the largest source; guides the rarest.
    const roll = random();
    const source = roll < 0.5 ? sources[0]! : roll < 0.85 ? sources[1]! : sources[2]!;
    const asset = pick(random, ASSETS);
    const name = `${pick(random, ORG_WORDS)} ${asset} ${pick(random, WORKS)}`;
    return {
      id: `PRJ-${1000 + n}`,
      name,
      slug: slugOf(`${1000 + n} ${name}`),
      source,
      anchor: Math.floor(random() * Math.max(1, source.sentences.length - 400)),
      people: [pick(random, people), pick(random, people), pick(random, people)],
      organisation: pick(random, organisations),
      budget: 5_000 + Math.floor(random() * 400) * 500,
      completed: `${1 + Math.floor(random() * 28)} ${pick(random, MONTHS)} ${2019 + Math.floor(random() * 7)}`,
    };
  });
}

/**
 * The sentences that tie notes together: the project's figures (most notes agree, about one in six
 * states a different amount: a contradiction to find), its people and organisation, its identifier.
 */
function projectSentences(project: Project, random: () => number): string[] {
  const lines: string[] = [];
  const person = pick(random, project.people);
  lines.push(`${person} of ${project.organisation} reviewed the ${project.name} (${project.id}).`);
  if (random() < 0.45) {
    const agrees = random() >= 0.17;
    const amount = agrees ? project.budget : project.budget + (random() < 0.5 ? -1 : 1) * (1 + Math.floor(random() * 20)) * 500;
    lines.push(`The ${project.name} cost ${euros(Math.max(500, amount))}, as ${pick(random, project.people)} reported to ${project.organisation}.`);
  }
  if (random() < 0.25) lines.push(`The ${project.name} was completed on ${project.completed}.`);
  return lines;
}

/** A run of consecutive sentences from near the project's anchor, until the note reaches its size. */
function bodySentences(project: Project, random: () => number, bytes: number): string[] {
  const sentences = project.source.sentences;
  let at = project.anchor + Math.floor(random() * 300);
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const sentence = sentences[at % sentences.length]!;
    out.push(sentence);
    size += Buffer.byteLength(sentence) + 1;
    at += random() < 0.8 ? 1 : 1 + Math.floor(random() * 40);
  }
  return out;
}

/** The folder's plan: every file's path and project, fixed before anything is written so links can point anywhere. */
class Plan {
  readonly projects: Project[];
  readonly projectOf: Int32Array;
  readonly paths: string[];
  readonly byProject: number[][];
  readonly binaryEvery: number;

  constructor(
    readonly files: number,
    readonly random: () => number,
    sources: Source[],
  ) {
    this.projects = makeProjects(Math.max(10, Math.round(files / 50)), sources, random);
    this.projectOf = new Int32Array(files);
    this.byProject = this.projects.map(() => []);
    this.paths = [];
    const binaries = Math.max(2, Math.round((files * BINARIES_PER_100K) / 100_000));
    this.binaryEvery = Math.max(1, Math.floor(files / binaries));
    for (let n = 0; n < files; n += 1) {
      // Projects grow unevenly, as real ones do: a few large, most small.
      const project = Math.floor(this.projects.length * random() ** 1.6);
      this.projectOf[n] = project;
      this.byProject[project]!.push(n);
      const { source, slug } = this.projects[project]!;
      const year = 2019 + (n % 7);
      const kind = this.binaryKind(n);
      const extension = kind ?? 'md';
      this.paths.push(`${source.area}/${slug}/${year}/note-${n}.${extension}`);
    }
  }

  /** Every binaryEvery-th file is a PDF or a DOCX, alternately. */
  binaryKind(n: number): 'pdf' | 'docx' | null {
    if (n % this.binaryEvery !== this.binaryEvery - 1) return null;
    return Math.floor(n / this.binaryEvery) % 2 === 0 ? 'pdf' : 'docx';
  }

  /** Another Markdown note, usually of the same project. */
  linkTarget(n: number): number {
    const own = this.byProject[this.projectOf[n]!]!;
    const candidates = own.length > 1 && this.random() < 0.8 ? own : null;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const target = candidates ? pick(this.random, candidates) : Math.floor(this.random() * this.files);
      if (target !== n && this.binaryKind(target) === null) return target;
    }
    return -1;
  }
}

function noteMarkdown(plan: Plan, n: number, random: () => number, revision = 0): string {
  const project = plan.projects[plan.projectOf[n]!]!;
  const size = MIN_NOTE_BYTES + Math.floor(random() * (MAX_NOTE_BYTES - MIN_NOTE_BYTES - 600));
  const body = bodySentences(project, random, size);
  const title = `${project.name}: ${body[0]!.split(' ').slice(0, 6).join(' ').replace(/[.,;:]+$/, '')}`;
  const author = pick(random, project.people);
  const links: string[] = [];
  for (let k = 0; k < 1 + Math.floor(random() * 4); k += 1) {
    const target = plan.linkTarget(n);
    if (target < 0) continue;
    const targetPath = plan.paths[target]!;
    if (random() < 0.5) links.push(`[[${path.posix.basename(targetPath, '.md')}]]`);
    else links.push(`[${plan.projects[plan.projectOf[target]!]!.id} note ${target}](${path.posix.relative(path.posix.dirname(plan.paths[n]!), targetPath)})`);
  }
  const tied = projectSentences(project, random);
  const half = Math.ceil(body.length / 2);
  const frontMatter = [
    '---',
    `title: "${title.replace(/"/g, "'")}"`,
    `project: ${project.id}`,
    `author: ${author}`,
    `organisation: ${project.organisation}`,
    `tags: [${project.source.area}, ${project.id.toLowerCase()}]`,
    `date: ${2019 + (n % 7)}-${String(1 + (n % 12)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`,
    ...(revision > 0 ? [`revision: ${revision}`] : []),
    '---',
  ];
  return [
    ...frontMatter,
    '',
    `# ${title}`,
    '',
    body.slice(0, half).join(' '),
    '',
    '## Notes',
    '',
    tied.join(' '),
    '',
    body.slice(half).join(' '),
    '',
    `See also: ${links.join(', ')}`,
    '',
  ].join('\n');
}

async function binaryFile(plan: Plan, n: number, kind: 'pdf' | 'docx', random: () => number): Promise<Uint8Array> {
  const project = plan.projects[plan.projectOf[n]!]!;
  const sentences = [...projectSentences(project, random), ...bodySentences(project, random, MIN_NOTE_BYTES + Math.floor(random() * 3000))];
  const title = `${project.name} (${project.id}): report ${n}`;
  if (kind === 'docx') return makeDocx([wPara(wRun(title)), ...sentences.map((sentence) => wPara(wRun(sentence)))].join(''));
  const lines: string[] = [title, ''];
  let line = '';
  for (const word of latin1(sentences.join(' ')).split(' ')) {
    if (line.length + word.length > 90) {
      lines.push(line);
      line = '';
    }
    line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  const pages: string[] = [];
  for (let at = 0; at < lines.length; at += 50) {
    pages.push(lines.slice(at, at + 50).map((text, k) => pdfText(text, 780 - k * 14, '', 10)).join('\n'));
  }
  return makePdf(pages, 0, { Title: latin1(title), Author: latin1(project.people[0]!) });
}

export interface NotesGenerator {
  /** Writes the whole folder; returns what it holds. */
  write(folder: string): Promise<FolderOfNotes>;
  /** A note's text as a person's edit leaves it: new sentences, perhaps a new figure, the links redrawn. */
  edited(relativePath: string, revision: number): string;
}

/** Reads the shared corpora and plans a folder of `files` files from `seed`. */
export function notesGenerator(files: number, seed: number, evalRoot = EVAL_ROOT): NotesGenerator {
  const random = seededRandom(seed);
  const plan = new Plan(files, random, readSources(evalRoot));
  const indexOf = new Map(plan.paths.map((relative, n) => [relative, n]));
  return {
    async write(folder) {
      const made = new Set<string>();
      const out: FolderOfNotes = { files: [], notes: [], pdfs: 0, docx: 0, bytes: 0, queries: [] };
      for (let n = 0; n < files; n += 1) {
        const relative = plan.paths[n]!;
        const target = path.join(folder, relative);
        const directory = path.dirname(target);
        if (!made.has(directory)) {
          mkdirSync(directory, { recursive: true });
          made.add(directory);
        }
        const kind = plan.binaryKind(n);
        const contents = kind ? await binaryFile(plan, n, kind, random) : noteMarkdown(plan, n, random);
        writeFileSync(target, contents);
        out.files.push(relative);
        out.bytes += typeof contents === 'string' ? Buffer.byteLength(contents) : contents.byteLength;
        if (kind === 'pdf') out.pdfs += 1;
        else if (kind === 'docx') out.docx += 1;
        else out.notes.push(relative);
      }
      const used = plan.projects.filter((_, k) => plan.byProject[k]!.length > 0);
      for (let q = 0; q < 40; q += 1) {
        const project = pick(random, used);
        const phrase = () => bodySentences(project, random, 1)[0]!.split(' ').slice(0, 5 + Math.floor(random() * 5)).join(' ');
        out.queries.push([project.name, project.id, `${pick(random, project.people)} ${project.organisation}`, `cost of the ${project.name}`, phrase()][q % 5]!);
      }
      return out;
    },
    edited(relativePath, revision) {
      const n = indexOf.get(relativePath);
      if (n === undefined) throw new Error(`${relativePath} is not a note of this folder`);
      return noteMarkdown(plan, n, random, revision);
    },
  };
}
