// An e-mail's body is what its sender wrote followed, most of the time, by the whole thread it
// answers. This splits a body into the sender's own paragraphs and the quoted earlier messages
// (`>` lines, "On … wrote:", Outlook's "-----Original Message-----" or From/Sent header block,
// an HTML <blockquote> or Gmail quote), so a claim from a quote is never taken for what this
// message says. HTML bodies are read as a browser shows them: hidden elements (htmlVisibility.ts)
// are left out and reported, and block elements end paragraphs. The body's links (an HTML body's
// anchors, a plain body's web addresses) are found with the line they stand on, so the message
// can place each at its paragraph.

import { Parser } from 'htmlparser2';
import type { Location } from '../../../shared/types.ts';
import { hiddenText } from './document.ts';
import { isHiddenElement } from './htmlVisibility.ts';
import { MAX_LINKS_PER_DOCUMENT, type HiddenText } from './types.ts';

export interface BodyParagraph {
  text: string;
  /** Part of an earlier message the sender quoted, not the sender's own words. */
  quoted: boolean;
  /** The body's line (0-based) the paragraph starts on. */
  line: number;
}

/** A link in a body: the target as written, the words a reader sees for it, the body's line (0-based) it stands on. */
export interface BodyLink {
  target: string;
  text: string;
  line: number;
}

/** Whether an anchor's target leads out of the message: not empty, not a place in it, not a script. */
function leadsOut(href: string): boolean {
  return href !== '' && !href.startsWith('#') && !/^\s*javascript:/i.test(href);
}

/** A web address written in plain text, up to the space or bracket that ends it. */
const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+/giu;

/** The web addresses of a plain-text body, each as its own text; punctuation that ends the sentence is not part of it. */
export function plainBodyLinks(body: string): BodyLink[] {
  const links: BodyLink[] = [];
  body.replace(/\r\n?/g, '\n').split('\n').forEach((line, index) => {
    for (const match of line.matchAll(WEB_ADDRESS)) {
      if (links.length >= MAX_LINKS_PER_DOCUMENT) return;
      const target = trimTrailing(match[0]);
      links.push({ target, text: target, line: index });
    }
  });
  return links;
}

/**
 * "https://x.org/a)." → "https://x.org/a": a closing bracket stays only when the address opened
 * one. The brackets are counted once, so an address ending in a crafted run of them costs linear work.
 */
function trimTrailing(address: string): string {
  let opened = 0;
  let closed = 0;
  for (const character of address) {
    if (character === '(') opened += 1;
    else if (character === ')') closed += 1;
  }
  let end = address.length;
  while (end > 0) {
    const last = address[end - 1]!;
    if (/[.,;:!?]/.test(last)) end -= 1;
    else if (last === ')' && opened < closed) {
      end -= 1;
      closed -= 1;
    } else break;
  }
  return address.slice(0, end);
}

/** Elements after which a browser starts a new line. */
const BLOCK_ELEMENTS = new Set(
  'address article aside blockquote br dd div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul'.split(' '),
);
/** Elements whose content is a quoted earlier message (Gmail, Outlook web, Apple Mail, Thunderbird). */
function quotesEarlierMessage(name: string, attributes: Readonly<Record<string, string>>): boolean {
  if (name === 'blockquote') return true;
  const className = attributes.class ?? '';
  return /\b(gmail_quote|yahoo_quoted|moz-cite-prefix)\b/.test(className) || attributes.id === 'divRplyFwdMsg' || attributes.id === 'appendonsend';
}

/**
 * The visible text of an HTML body as lines, quoted parts prefixed with "> " as a plain-text
 * mailer would; hidden elements and comments reported. A streaming parser, so a body nested
 * thousands of elements deep costs no stack.
 */
export function htmlBodyText(html: string, location: Location): { text: string; hidden: HiddenText[]; links: BodyLink[] } {
  const lines: string[] = [];
  let line = '';
  const hidden: HiddenText[] = [];
  const links: BodyLink[] = [];
  /** The anchor being read: its target and its visible words so far (anchors do not nest). */
  let anchor: BodyLink | null = null;
  const open: { hidden: boolean; quote: boolean }[] = [];
  let hiddenDepth = 0;
  let silentDepth = 0;
  let quoteDepth = 0;
  let hiddenParts: string[] = [];
  const endLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    lines.push(text === '' ? '' : `${'> '.repeat(quoteDepth)}${text}`);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // A style sheet is formatting, never words: dropped without a report (mailers put one in every HTML mail).
        const hides = hiddenDepth === 0 && isHiddenElement(name, attributes) && name !== 'style';
        if (name === 'style' || name === 'title') silentDepth++;
        const quote = quotesEarlierMessage(name, attributes);
        if (BLOCK_ELEMENTS.has(name)) endLine();
        open.push({ hidden: hides, quote });
        if (hides) hiddenDepth++;
        if (quote) quoteDepth++;
        const href = (attributes.href ?? '').trim();
        if (name === 'a' && hiddenDepth === 0 && leadsOut(href)) anchor = { target: href, text: '', line: lines.length };
      },
      onclosetag(name) {
        const element = open.pop();
        if (name === 'style' || name === 'title') silentDepth = Math.max(0, silentDepth - 1);
        if (name === 'a' && anchor !== null) {
          const text = anchor.text.replace(/\s+/g, ' ').trim();
          if (links.length < MAX_LINKS_PER_DOCUMENT) links.push({ ...anchor, text: text === '' ? anchor.target : text });
          anchor = null;
        }
        if (BLOCK_ELEMENTS.has(name)) endLine();
        if (element?.quote) quoteDepth--;
        if (element?.hidden) {
          hiddenDepth--;
          const finding = hiddenText('hidden_element', hiddenParts.join(' '), location);
          if (finding) hidden.push(finding);
          hiddenParts = [];
        }
      },
      ontext(text) {
        if (silentDepth > 0) return;
        if (hiddenDepth > 0) hiddenParts.push(text);
        else {
          line += text;
          if (anchor !== null && anchor.text.length < 1000) anchor.text += text;
        }
      },
      oncomment(text) {
        if (/^\s*\[if\b|\[endif\]\s*$/i.test(text)) return; // Outlook's conditional markup, not text.
        const finding = hiddenText('html_comment', text, location);
        if (finding) hidden.push(finding);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  endLine();
  return { text: lines.join('\n'), hidden, links };
}

/** A line that introduces a quote: "On Tue, 3 May 2023, Carla <c@x.com> wrote:", "Le … a écrit :". */
const ATTRIBUTION = /^(On|Am|Le|El|Il|Op)\b.{0,300}\b(wrote|schrieb|a écrit|escribió|ha scritto|schreef)\s*:\s*$/i;
/** Lines after which everything is the forwarded or answered message (Outlook, Apple Mail). */
const EARLIER_MESSAGE = /^(-{2,}\s*(Original Message|Forwarded message|Ursprüngliche Nachricht|Message d'origine)\s*-{2,}|Begin forwarded message:)\s*$/i;
/** Outlook's header block for the quoted message: "From: …" followed closely by "Sent:" or "Date:". */
const OUTLOOK_FROM = /^\*?From:\*?\s+\S/;
const OUTLOOK_SENT = /^\*?(Sent|Date):\*?\s+\S/;

/** The body's paragraphs in order, each marked as the sender's own words or quoted. */
export function splitQuoted(body: string): BodyParagraph[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const paragraphs: BodyParagraph[] = [];
  let current: string[] = [];
  let currentLine = 0;
  let currentQuoted = false;
  let restQuoted = false;
  const flush = () => {
    const text = current.join('\n').trim();
    if (text !== '') paragraphs.push({ text, quoted: currentQuoted, line: currentLine });
    current = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trimEnd();
    if (!restQuoted && (EARLIER_MESSAGE.test(raw.trim()) || (OUTLOOK_FROM.test(raw) && lines.slice(i + 1, i + 4).some((next) => OUTLOOK_SENT.test(next.trim()))))) {
      restQuoted = true;
    }
    const isQuoteLine = /^\s*>/.test(raw);
    const startsQuote = ATTRIBUTION.test(raw.trim()) && lines.slice(i + 1, i + 3).some((next) => /^\s*>/.test(next));
    const quoted = restQuoted || isQuoteLine || startsQuote;
    const text = isQuoteLine ? raw.replace(/^(\s*>)+ ?/, '') : raw;
    if (quoted !== currentQuoted || text.trim() === '') flush();
    currentQuoted = quoted;
    if (text.trim() === '') continue;
    if (current.length === 0) currentLine = i;
    current.push(text);
  }
  flush();
  return paragraphs;
}
