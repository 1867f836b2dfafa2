// Web addresses, Git remotes and bare domain names. A URL is opaque: nothing inside it is an
// e-mail address, a date or a name (index.ts ranks it first), and "git@github.com:org/repo.git"
// is the remote of a repository, not a mailbox. One key per resource however it is written:
// scheme, "www.", a trailing slash, a fragment and ".git" are formatting, so the HTTPS and SSH
// remotes of one repository share `url:github.com/org/repo`.

import type { Found } from './found.ts';

const URL = /\b(?:https?|ftp|ssh|git):\/\/[^\s<>"'`\\]+|\bwww\.[^\s<>"'`\\]+/giu;
/** scp-like Git remote: user@host:path (the colon straight after the host, then a path). */
const GIT_REMOTE = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._-]+@((?:[\p{L}\p{N}-]+\.)+\p{L}{2,63}):(?!\d+\b)([\p{L}\p{N}._~\/-]+)/gu;
/**
 * A bare domain in prose ("see crates.io", "github.com"): lower-case, with a top-level domain
 * from a short list that leaves out those that are also file extensions (.rs, .md, .py, .sh).
 */
const DOMAIN = /(?<![\p{L}\p{N}@./_-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:com|org|net|io|dev|edu|gov|app|info|eu|uk|de|fr|nl|ch|ca|au|jp|ai)(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;

/** Trailing punctuation belongs to the sentence, and a closing bracket only if it opened inside. */
function trimUrl(url: string): string {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last === undefined) break;
    if ('.,;:!?\'"*_'.includes(last)) end--;
    else if (last === ')' && count(url.slice(0, end), '(') < count(url.slice(0, end), ')')) end--;
    else if (last === ']' && count(url.slice(0, end), '[') < count(url.slice(0, end), ']')) end--;
    else if (last === '>' || last === '}') end--;
    else break;
  }
  return url.slice(0, end);
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** `url:<host>/<path>`: lower case, no scheme, user, "www.", port 80/443, fragment, ".git" or trailing slash. */
export function urlKey(url: string): string {
  let rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/#.*$/, '');
  rest = rest.replace(/^[^/@]*@/, '').replace(/^www\./i, '').replace(/:(?:80|443)(?=\/|$)/, '');
  rest = rest.replace(/\.git(?=\/?$)/i, '').replace(/\/+$/, '');
  return `url:${rest.toLowerCase()}`;
}

export function findUrls(text: string): Found[] {
  const found: Found[] = [];
  URL.lastIndex = 0;
  for (let m = URL.exec(text); m !== null; m = URL.exec(text)) {
    const surface = trimUrl(m[0]);
    if (!/[\p{L}\p{N}]\.[\p{L}]|localhost/u.test(surface)) continue;
    found.push({ type: 'url', surface, key: urlKey(surface), start: m.index, end: m.index + surface.length });
  }
  GIT_REMOTE.lastIndex = 0;
  for (let m = GIT_REMOTE.exec(text); m !== null; m = GIT_REMOTE.exec(text)) {
    const surface = trimUrl(m[0]);
    const path = surface.slice(surface.indexOf(':') + 1);
    if (!/[\p{L}\p{N}]/u.test(path)) continue;
    found.push({ type: 'url', surface, key: urlKey(`${m[1]!}/${path}`), start: m.index, end: m.index + surface.length });
  }
  return found;
}

export function findDomains(text: string): Found[] {
  const found: Found[] = [];
  DOMAIN.lastIndex = 0;
  for (let m = DOMAIN.exec(text); m !== null; m = DOMAIN.exec(text)) {
    const surface = m[0];
    found.push({ type: 'domain', surface, key: `domain:${surface.replace(/^www\./, '')}`, start: m.index, end: m.index + surface.length });
  }
  return found;
}
