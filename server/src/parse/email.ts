// Saved e-mail (.eml, one message) and mailboxes (.mbox, many): each message becomes a section
// headed by its subject, opened by a header paragraph (From, To, Cc, Date) that the extractors read
// people, addresses and the message's date from, and the same fields kept as metadata. The body
// is split into what the sender wrote and what they quoted (mailBody.ts), quotes under their own
// "Quoted reply" heading. The body's links (anchors of an HTML body, web addresses of a plain one)
// are the message's links, each at its paragraph. Attachments in a format Relata reads are parsed by that format's parser
// and follow as parts of the message; others are listed by name. A message attached to a message
// is read the same way, down to MAX_MESSAGE_DEPTH: deeper nesting fails the file, since nothing
// but a crafted file nests messages dozens deep. MIME itself is read by mailparser. The parsers
// for attachments are handed in (AttachmentParsers) by the registry, which lists this parser too.

import path from 'node:path';
import type { AddressObject, Attachment, ParsedMail } from 'mailparser';
import { parsedDocument } from './document.ts';
import { htmlBodyText, plainBodyLinks, splitQuoted, type BodyLink } from './mailBody.ts';
import { MetadataReader } from './metadata.ts';
import { MAX_LINKS_PER_DOCUMENT, ParseError, type Block, type DocumentLink, type HeadingEntry, type HiddenText, type ParsedDocument, type Parser, type ParserLimits } from './types.ts';

/** A message inside a message inside a message…: real mail nests a forward or two. */
export const MAX_MESSAGE_DEPTH = 8;
/** Attachments parsed per file; later ones are listed, not read, so one mail costs bounded time. */
export const MAX_ATTACHMENTS_READ = 20;
/** The MIME parts one message may hold: mailsplit's own cap (MAX_CHILD_NODES), which mailparser does not let a caller change. */
export const MAX_MIME_PARTS = 1_000;
/** Attachments named in a message's header passage; the rest are counted, so a message of ten thousand parts stays one readable passage. */
export const MAX_ATTACHMENTS_NAMED = 50;
/** HTML bodies larger than this are read as their plain-text part, if any (mailparser's own cap). */
const MAX_HTML_BODY_CHARS = 5 * 1024 * 1024;
/** Label of the sections holding quoted earlier messages. */
export const QUOTED_REPLY = 'Quoted reply';
/** Images are listed, not read: OCR of every logo and signature image would cost minutes per mailbox. */
const LISTED_ONLY = new Set(['.png', '.jpg', '.jpeg', '.tif', '.tiff', '.gif', '.bmp']);

/** How a message reads its attachments: the registry's own lookup and dispatch. */
export interface AttachmentParsers {
  parserFor(fileName: string): Parser | null;
  parseFile(bytes: Uint8Array, fileName: string, limits: Partial<ParserLimits>): Promise<ParsedDocument>;
}

export const emailParserWith = (attachments: AttachmentParsers): Parser => ({
  version: 'email@4',
  extensions: ['.eml', '.mbox'],
  async parse(bytes, fileName) {
    if (bytes.length === 0) throw new ParseError('empty file (0 bytes)');
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    const mailbox = path.extname(fileName).toLowerCase() === '.mbox';
    const messages = mailbox ? splitMbox(buffer) : [buffer];
    if (messages.length === 0) throw new ParseError('not an mbox mailbox: no line starting with "From " separates messages');
    const reader = new MessageReader(attachments);
    for (const message of messages) await reader.readMessage(message, [], 0);
    if (!mailbox && reader.headerCount === 0) throw new ParseError('not an e-mail message: no From, To, Subject or Date header');
    return parsedDocument({
      title: mailbox ? null : reader.firstSubject,
      blocks: reader.blocks,
      structure: { headings: reader.headings, tables: [] },
      hidden: reader.hidden,
      metadata: reader.metadata.finish(),
      links: reader.links,
      truncated: unreadParts(reader),
    });
  },
});

/** What of the file was left unread and why, in one note; null when everything was read. */
function unreadParts(reader: MessageReader): string | null {
  // A mailbox of ten thousand such messages stays a note a person reads: the first few are named.
  const bodies = reader.unreadHtmlBodies;
  const notes = bodies.slice(0, 3);
  if (bodies.length > 3) notes.push(`and ${(bodies.length - 3).toLocaleString('en')} more HTML bodies`);
  const attachments = reader.unreadAttachments;
  if (attachments > 0) notes.push(`${attachments.toLocaleString('en')} attachment${attachments === 1 ? '' : 's'} over the ${MAX_ATTACHMENTS_READ} read per file were listed, not read`);
  return notes.length > 0 ? notes.join('; ') : null;
}

/** An mbox's messages: each starts at a "From " line; ">From " lines in a body are unescaped. */
export function splitMbox(mbox: Buffer): Buffer[] {
  const text = mbox.toString('latin1'); // Bytes kept as they are: each message declares its own charset.
  const starts: number[] = [];
  const separator = /^From [^\n]*\n/gm;
  for (let match = separator.exec(text); match !== null; match = separator.exec(text)) {
    if (match.index === 0 || text[match.index - 1] === '\n') starts.push(match.index);
  }
  return starts.map((start, i) => {
    const message = text.slice(text.indexOf('\n', start) + 1, starts[i + 1] ?? text.length);
    return Buffer.from(message.replace(/^>(>*From )/gm, '$1'), 'latin1');
  });
}

class MessageReader {
  readonly blocks: Block[] = [];
  readonly headings: HeadingEntry[] = [];
  readonly hidden: HiddenText[] = [];
  readonly metadata = new MetadataReader();
  readonly links: DocumentLink[] = [];
  firstSubject: string | null = null;
  headerCount = 0;
  unreadAttachments = 0;
  /** Why a message's HTML body was not read, one sentence each, for the document's `truncated`. */
  readonly unreadHtmlBodies: string[] = [];

  constructor(private readonly attachments: AttachmentParsers) {}
  private attachmentsRead = 0;

  async readMessage(raw: Buffer, outer: string[], depth: number): Promise<void> {
    if (depth > MAX_MESSAGE_DEPTH) {
      throw new ParseError(`messages attached inside messages more than ${MAX_MESSAGE_DEPTH} deep; not read`);
    }
    // Loaded on the first message, not with the parsers: mailparser's MIME and charset tables cost
    // every process (the command line, each stage thread) a noticeable share of its start.
    const { simpleParser } = await import('mailparser');
    let mail: ParsedMail;
    try {
      mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, maxHtmlLengthToParse: MAX_HTML_BODY_CHARS });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // mailsplit, under mailparser, stops at its cap of MIME parts: said in words a person acts on.
      if (/Max allowed child nodes/i.test(message)) throw new ParseError(`more than ${MAX_MIME_PARTS.toLocaleString('en')} parts (bodies and attachments) in one message; not read`);
      throw new ParseError(`malformed e-mail: ${message}`);
    }
    const subject = mail.subject?.trim() || '(no subject)';
    if (mail.from || mail.to || mail.subject || mail.date) this.headerCount++;
    if (depth === 0 && outer.length === 0) this.firstSubject ??= mail.subject?.trim() || null;
    const section = [...outer, subject];
    const heading = this.add('heading', subject, section);
    this.headings.push({ level: section.length, text: subject, location: heading });

    const lines: string[] = [];
    for (const [label, value] of [['From', mail.from], ['To', mail.to], ['Cc', mail.cc]] as const) {
      const text = addresses(value);
      if (text === '') continue;
      lines.push(`${label}: ${text}`);
      if (depth === 0) for (const one of addressList(value)) this.metadata.add(label, one);
    }
    if (mail.date && !Number.isNaN(mail.date.getTime())) {
      lines.push(`Date: ${messageDate(mail.date)}`);
      if (depth === 0) this.metadata.add('Date', mail.date.toISOString().slice(0, 10));
    }
    const listed: string[] = [];
    const toRead: Attachment[] = [];
    for (const attachment of mail.attachments) {
      const name = attachmentName(attachment);
      if (attachment.contentType === 'message/rfc822' || this.readable(name)) toRead.push(attachment);
      else listed.push(`${name} (${attachment.contentType}, not read)`);
    }
    const names = [...toRead.map(attachmentName), ...listed];
    if (names.length > 0) {
      const more = names.length - MAX_ATTACHMENTS_NAMED;
      lines.push(`Attachments: ${names.slice(0, MAX_ATTACHMENTS_NAMED).join('; ')}${more > 0 ? `; and ${more.toLocaleString('en')} more` : ''}`);
    }
    if (lines.length > 0) this.add('paragraph', lines.join('\n'), section);

    const location = { kind: 'blocks', start: this.blocks.length + 1, end: this.blocks.length + 1 } as const;
    let body = mail.text ?? '';
    let links: BodyLink[] | null = null;
    if (typeof mail.html === 'string' && mail.html.length > MAX_HTML_BODY_CHARS) {
      this.unreadHtmlBodies.push(`the HTML body of "${subject}" is over the ${MAX_HTML_BODY_CHARS / 1024 / 1024} MiB read per body: ${body.trim() === '' ? 'not read' : 'its plain-text part read instead'}`);
    } else if (typeof mail.html === 'string') {
      const html = htmlBodyText(mail.html, location);
      this.hidden.push(...html.hidden);
      body = html.text;
      links = html.links;
    }
    const paragraphs = splitQuoted(body).map((paragraph) => ({
      line: paragraph.line,
      location: this.add('paragraph', paragraph.text, paragraph.quoted ? [...section, QUOTED_REPLY] : section),
    }));
    this.addLinks(links ?? plainBodyLinks(body), paragraphs);

    for (const attachment of toRead) {
      const name = attachmentName(attachment);
      if (attachment.contentType === 'message/rfc822') {
        await this.readMessage(attachment.content, [...section, `Attached message: ${name}`], depth + 1);
      } else {
        await this.readAttachment(attachment.content, name, [...section, `Attachment: ${name}`]);
      }
    }
  }

  /**
   * Each body link at the paragraph holding its line: the last one starting at or before it (the
   * first, for a link above every paragraph), found by halving, since a crafted body holds a
   * hundred thousand paragraphs.
   */
  private addLinks(links: readonly BodyLink[], paragraphs: readonly { line: number; location: Block['location'] }[]): void {
    if (paragraphs.length === 0) return;
    for (const link of links) {
      if (this.links.length >= MAX_LINKS_PER_DOCUMENT) return;
      let low = 0;
      let high = paragraphs.length - 1;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (paragraphs[middle]!.line <= link.line) low = middle;
        else high = middle - 1;
      }
      this.links.push({ target: link.target, text: link.text, kind: 'hyperlink', location: paragraphs[low]!.location });
    }
  }

  /** A supported, non-image attachment, while the file's attachment budget lasts. */
  private readable(name: string): boolean {
    const extension = path.extname(name).toLowerCase();
    if (LISTED_ONLY.has(extension)) return false;
    return this.attachments.parserFor(name) !== null;
  }

  private async readAttachment(content: Buffer, name: string, section: string[]): Promise<void> {
    if (this.attachmentsRead >= MAX_ATTACHMENTS_READ) {
      this.unreadAttachments++;
      return;
    }
    this.attachmentsRead++;
    try {
      // No OCR inside a message: its budget belongs to files of their own, and the message has a time limit of its own.
      const document = await this.attachments.parseFile(new Uint8Array(content), name, { ocr: false });
      for (const block of document.blocks) this.add(block.kind, block.text, [...section, ...block.headingPath]);
      const at = { kind: 'blocks', start: this.blocks.length, end: this.blocks.length } as const;
      this.hidden.push(...(document.hidden ?? []).map((finding) => ({ ...finding, location: at })));
    } catch (error) {
      if (!(error instanceof ParseError)) throw error;
      this.add('paragraph', `${name} was not read: ${error.message}`, section);
    }
  }

  private add(kind: Block['kind'], text: string, headingPath: string[]) {
    const ordinal = this.blocks.length + 1;
    const location = { kind: 'blocks', start: ordinal, end: ordinal } as const;
    this.blocks.push({ kind, text, headingPath, location });
    return location;
  }
}

function addressList(value: AddressObject | AddressObject[] | undefined): string[] {
  const groups = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const people: string[] = [];
  const visit = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group) visit(entry.group);
      else if (entry.address || entry.name) people.push(entry.name && entry.address ? `${entry.name} <${entry.address}>` : entry.address || entry.name);
    }
  };
  for (const group of groups) visit(group.value);
  return people;
}

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  return addressList(value).join(', ');
}

/** "4 May 2023, 14:06 UTC": a form the date extractor reads, in the sender's instant. */
function messageDate(date: Date): string {
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}

function attachmentName(attachment: Attachment): string {
  const name = attachment.filename?.replace(/[\\/]/g, '_').trim();
  if (name) return name;
  return attachment.contentType === 'message/rfc822' ? 'message.eml' : `unnamed ${attachment.contentType}`;
}
