// Email addresses: the most reliable identifier a document carries for a person or a mailbox.
// A practical subset of RFC 5322 (dot-atom local part, dotted host names, an alphabetic top-level
// domain); quoted local parts and IP-literal hosts are rare in documents and left out. A Git
// remote (user@host:path) and a URL's user part (ssh://git@host/) are not addresses.

import type { Found } from './found.ts';

const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;
/** The local part just before the "@": dot-separated atoms (no leading, trailing or double dot). */
const LOCAL_BEFORE = /[\p{L}\p{N}_%+-]+(?:\.[\p{L}\p{N}_%+-]+)*$/u;
const DOMAIN_AFTER = new RegExp(String.raw`^(?:${LABEL}\.)+\p{L}{2,63}(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])`, 'u');
const LOCAL_CHAR = /[\p{L}\p{N}._%+-]/u;

export function findEmails(text: string): Found[] {
  const found: Found[] = [];
  // Anchored on each "@": scanning every position of a long text for a local part is slow.
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    const before = text.slice(Math.max(0, at - 65), at);
    const local = LOCAL_BEFORE.exec(before)?.[0];
    if (local === undefined || local.length > 64) continue;
    const start = at - local.length;
    // A full stop before the local part is punctuation; any other address character means the
    // part is longer than the window, so too long to be valid.
    if (start > 0 && LOCAL_CHAR.test(text[start - 1]!) && text[start - 1] !== '.') continue;
    const domain = DOMAIN_AFTER.exec(text.slice(at + 1, at + 256))?.[0];
    if (domain === undefined) continue;
    const after = at + 1 + domain.length;
    // "git@github.com:org/repo.git" is a Git remote and "ssh://git@host/..." a URL's user: no mailbox.
    if (/^:[\p{L}\p{N}~\/._-]/u.test(text.slice(after, after + 2)) || /:\/\/$/.test(text.slice(Math.max(0, start - 3), start))) continue;
    const address = `${local}@${domain}`;
    found.push({ type: 'email', surface: address, key: `email:${address.toLowerCase()}`, start, end: start + address.length });
  }
  return found;
}
