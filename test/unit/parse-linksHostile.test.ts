// Links from RTF and e-mail are read from untrusted files: crafted fields, floods of addresses,
// attachment names that climb out of the folder. Each is read in bounded work (a test's timeout
// is the only clock, generous for linear work and far too short for quadratic), keeps at most
// MAX_LINKS_PER_DOCUMENT links with clipped targets, and never turns an attachment's name into a
// path Relata reads.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_ATTACHMENTS_NAMED, MAX_ATTACHMENTS_READ, MAX_MIME_PARTS } from '../../server/src/parse/email.ts';
import { emailParser } from '../../server/src/parse/registry.ts';
import { plainBodyLinks } from '../../server/src/parse/mailBody.ts';
import { MAX_RTF_GROUP_DEPTH, rtfParser } from '../../server/src/parse/rtf.ts';
import { LINK_TARGET_MAX_CHARS, LINK_TEXT_MAX_CHARS, MAX_LINKS_PER_DOCUMENT } from '../../server/src/parse/types.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const field = (target: string, words: string) => `{\\field{\\*\\fldinst { HYPERLINK "${target}" }}{\\fldrslt ${words}}}`;

test('an RTF of 100,000 HYPERLINK fields keeps the first MAX_LINKS_PER_DOCUMENT links and all of its text', { timeout: 120_000 }, async () => {
  const parts = ['{\\rtf1\\ansi '];
  for (let i = 0; i < 100_000; i++) parts.push(`${field(`doc-${i}.md`, `see ${i}`)}\\par `);
  parts.push('}');
  const doc = await rtfParser.parse(bytes(parts.join('')), 'flood.rtf');
  assert.equal(doc.links?.length, MAX_LINKS_PER_DOCUMENT);
  assert.equal(doc.links?.at(-1)?.target, `doc-${MAX_LINKS_PER_DOCUMENT - 1}.md`);
  assert.match(doc.text, /see 99999/, 'the fields\' words are all text');
});

test('an RTF field with a huge instruction and a huge result is one link, its target and words clipped', { timeout: 120_000 }, async () => {
  const target = `https://example.com/${'a'.repeat(2_000_000)}`;
  const words = 'word '.repeat(400_000);
  const doc = await rtfParser.parse(bytes(`{\\rtf1\\ansi ${field(target, words)}\\par}`), 'huge.rtf');
  assert.equal(doc.links?.length, 1);
  assert.ok(doc.links![0]!.target.length <= LINK_TARGET_MAX_CHARS);
  assert.ok(doc.links![0]!.text.length <= LINK_TEXT_MAX_CHARS);
});

test('HYPERLINK fields nested in each other\'s results, to the group cap, are read; deeper fails with the reason', { timeout: 120_000 }, async () => {
  // Each field opens three groups ({\field, {\fldrslt and the instruction's own), so 150 fit under the cap.
  let nested = 'innermost words';
  for (let level = 0; level < 150; level++) nested = field(`level-${level}.md`, `level ${level} ${nested}`);
  const doc = await rtfParser.parse(bytes(`{\\rtf1\\ansi ${nested}\\par}`), 'nested.rtf');
  assert.match(doc.text, /innermost words/);
  assert.ok((doc.links?.length ?? 0) >= 1 && doc.links!.length <= 150);
  let deeper = 'x';
  for (let level = 0; level < MAX_RTF_GROUP_DEPTH; level++) deeper = field(`d-${level}.md`, deeper);
  await assert.rejects(rtfParser.parse(bytes(`{\\rtf1\\ansi ${deeper}\\par}`), 'deeper.rtf'), { name: 'ParseError', message: `RTF groups nested more than ${MAX_RTF_GROUP_DEPTH} deep; not read` });
});

test('an unterminated HYPERLINK field, or one with an unterminated quote, ends with the file: no link without words a reader sees', async () => {
  const open = await rtfParser.parse(bytes('{\\rtf1\\ansi Before. {\\field{\\*\\fldinst { HYPERLINK "../../etc/passwd"'), 'open.rtf');
  assert.deepEqual(open.links, []);
  assert.match(open.text, /Before\./);
  const quote = await rtfParser.parse(bytes(`{\\rtf1\\ansi {\\field{\\*\\fldinst { HYPERLINK "${'\\\\'.repeat(3000)}}}{\\fldrslt the words}}\\par}`), 'quote.rtf');
  assert.ok((quote.links ?? []).every((link) => link.target.length <= LINK_TARGET_MAX_CHARS));
  assert.match(quote.text, /the words/);
});

test('a plain e-mail body of 100,000 web addresses keeps MAX_LINKS_PER_DOCUMENT links', { timeout: 120_000 }, async () => {
  const body = Array.from({ length: 100_000 }, (_, i) => `See https://example.com/page-${i} for item ${i}.`).join('\r\n');
  const doc = await emailParser.parse(bytes(`From: a@example.com\r\nSubject: Flood\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`), 'flood.eml');
  assert.equal(doc.links?.length, MAX_LINKS_PER_DOCUMENT);
  assert.equal(doc.links?.at(-1)?.target, `https://example.com/page-${MAX_LINKS_PER_DOCUMENT - 1}`);
});

test('an HTML e-mail body of 100,000 anchors in as many paragraphs keeps MAX_LINKS_PER_DOCUMENT links, each at its own paragraph', { timeout: 120_000 }, async () => {
  // Short anchors, so the body stays under the 5 MB an HTML body is read up to.
  const body = Array.from({ length: 100_000 }, (_, i) => `<p>${i} <a href="../o${i}">n${i}</a></p>`).join('');
  const doc = await emailParser.parse(bytes(`From: a@example.com\r\nSubject: Anchors\r\nContent-Type: text/html\r\n\r\n${body}\r\n`), 'anchors.eml');
  assert.equal(doc.links?.length, MAX_LINKS_PER_DOCUMENT);
  const starts = doc.links!.map((link) => link.location.start);
  assert.equal(new Set(starts).size, starts.length, 'each anchor at the paragraph it stands in');
  const last = doc.links!.at(-1)!;
  assert.equal(doc.blocks[last.location.start - 1]?.text, `${MAX_LINKS_PER_DOCUMENT - 1} n${MAX_LINKS_PER_DOCUMENT - 1}`);
});

test('a web address ending in 200,000 closing brackets is read in linear work, the brackets it never opened left out', { timeout: 60_000 }, () => {
  const links = plainBodyLinks(`Look at https://example.com/a${')'.repeat(200_000)} now`);
  assert.deepEqual(links.map((link) => link.target), ['https://example.com/a']);
});

/** A multipart message with these attachments, each a small text file under the given name. */
function withAttachments(names: readonly string[]): Uint8Array {
  const parts = ['From: a@example.com', 'Subject: Files', 'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b"', '', '--b', 'Content-Type: text/plain', '', 'The files are attached.'];
  names.forEach((name, i) => parts.push('--b', `Content-Type: text/plain; name="${name}"`, `Content-Disposition: attachment; filename="${name}"`, '', `Attached text number ${i}.`));
  parts.push('--b--', '');
  return bytes(parts.join('\r\n'));
}

test('attachment names that climb out of the folder or are absolute are names, never paths: their own bytes are read, no link is made', async () => {
  const doc = await emailParser.parse(withAttachments(['../../etc/passwd.txt', '/etc/shadow.txt', 'C:\\Windows\\win.ini.txt', 'file:///etc/hosts.txt']), 'files.eml');
  assert.deepEqual(doc.links, []);
  const sections = doc.blocks.map((block) => block.headingPath.at(-1)).filter((heading) => heading?.startsWith('Attachment: '));
  assert.deepEqual([...new Set(sections)], ['Attachment: .._.._etc_passwd.txt', 'Attachment: _etc_shadow.txt', 'Attachment: C:Windowswin.ini.txt', 'Attachment: file:___etc_hosts.txt']);
  assert.match(doc.text, /Attached text number 0\./);
  assert.doesNotMatch(doc.text, /root:|localhost/, 'nothing of the named paths was read');
});

test('a message of 10,000 attachments fails saying it has too many parts; one of 900 reads MAX_ATTACHMENTS_READ, names MAX_ATTACHMENTS_NAMED and counts the rest', { timeout: 120_000 }, async () => {
  await assert.rejects(emailParser.parse(withAttachments(Array.from({ length: 10_000 }, (_, i) => `part-${i}.txt`)), 'many.eml'), {
    name: 'ParseError',
    message: `more than ${MAX_MIME_PARTS.toLocaleString('en')} parts (bodies and attachments) in one message; not read`,
  });
  const doc = await emailParser.parse(withAttachments(Array.from({ length: 900 }, (_, i) => `part-${i}.txt`)), 'several.eml');
  assert.equal(new Set(doc.blocks.filter((block) => block.headingPath.at(-1)?.startsWith('Attachment: ')).map((block) => block.headingPath.at(-1))).size, MAX_ATTACHMENTS_READ);
  assert.equal(doc.truncated, `${900 - MAX_ATTACHMENTS_READ} attachments over the ${MAX_ATTACHMENTS_READ} read per file were listed, not read`);
  const header = doc.blocks.find((block) => block.text.includes('Attachments: '))!;
  assert.equal(header.text.split('; ').length, MAX_ATTACHMENTS_NAMED + 1, 'the names listed, then the count of the rest');
  assert.match(header.text, new RegExp(`; and ${900 - MAX_ATTACHMENTS_NAMED} more$`));
  assert.deepEqual(doc.links, []);
});
