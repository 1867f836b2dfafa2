// Template text is not evidence (relationship-score-v2, rule 8). Files written from one template
// share its header, footer and sign-off: two incident reports about different incidents were
// linked at 0.466 through the e-mail address their form signs off with. A name that stands in
// the same place across a set of files is the template's, and between two files whose every
// mention of it stands in such a place it is no evidence that they are related.
//
// A mention's place is the text around it in its passage: the nearest non-blank line before its
// own, and its own line either side of it ("Regards," / "Ops Desk <ops-desk@…>"). A place is the
// template's when at least TEMPLATE_MIN_FILES files put a mention of the name there. A name a file
// also uses in its own words (a party named in a contract's body as well as its signature block)
// stays evidence for that file. Bounded: a few keys, each read through the key index with a limit.

import type { EntityMentionContext, WorkspaceStore } from '../store/contract.ts';
import type { ItemProfile } from './profile.ts';

/** A place is the template's when this many files put the name there: two files alike could be one author's habit. */
export const TEMPLATE_MIN_FILES = 3;

/** Characters read either side of a mention: a sign-off's previous line and the mention's own line. */
export const MENTION_REACH = 160;

/** Mentions of one name read to find its template places, and again for the pair's files. */
export const MENTIONS_READ = 200;

/** Names checked per item discovered: those the candidates share with it and at least TEMPLATE_MIN_FILES files give, rarest first. */
export const TEMPLATE_NAMES_CHECKED = 32;

/** Per name: the files that give it only in its template places, and how many files share its commonest place. */
export interface TemplateName {
  items: Set<string>;
  files: number;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The place a mention stands in, or null when nothing around it can be recognised (alone at the
 * start of its passage, as a heading often is: a title names what the file is about).
 */
export function placeOf(mention: Pick<EntityMentionContext, 'before' | 'after'>): string | null {
  const lines = mention.before.split('\n');
  const ownBefore = normalise(lines.pop() ?? '');
  const previous = normalise(lines.reverse().find((line) => line.trim() !== '') ?? '');
  const ownAfter = normalise(mention.after.split('\n')[0] ?? '');
  if (previous === '' && ownBefore === '' && ownAfter === '') return null;
  return [previous, ownBefore, ownAfter].join('\u0001');
}

/** The places at least TEMPLATE_MIN_FILES files put a mention in, with how many files do. */
export function templatePlaces(mentions: readonly EntityMentionContext[]): Map<string, number> {
  const filesAt = new Map<string, Set<string>>();
  for (const mention of mentions) {
    const place = placeOf(mention);
    if (place === null) continue;
    filesAt.set(place, (filesAt.get(place) ?? new Set()).add(mention.itemId));
  }
  const places = new Map<string, number>();
  for (const [place, files] of filesAt) if (files.size >= TEMPLATE_MIN_FILES) places.set(place, files.size);
  return places;
}

/** The files among `mentions` whose every mention stands in one of `places`. */
export function filesGivingOnlyTemplate(mentions: readonly EntityMentionContext[], places: ReadonlyMap<string, number>): Set<string> {
  const own = new Set<string>();
  const template = new Set<string>();
  for (const mention of mentions) {
    const place = placeOf(mention);
    (place !== null && places.has(place) ? template : own).add(mention.itemId);
  }
  return new Set([...template].filter((itemId) => !own.has(itemId)));
}

/**
 * The names the subject shares with its candidates that are the template's in some of the files,
 * for the evidence to leave out where both files of a pair give the name only as the template does.
 */
export async function templateNames(
  store: WorkspaceStore,
  subject: ItemProfile,
  candidates: readonly ItemProfile[],
  /** Items mentioning each of the subject's names (Frequencies.entityItems). */
  entityItems: ReadonlyMap<string, number>,
): Promise<Map<string, TemplateName>> {
  const holders = new Map<string, string[]>();
  for (const profile of candidates) {
    for (const key of new Set(profile.entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key))) {
      holders.set(key, [...(holders.get(key) ?? []), profile.item.id]);
    }
  }
  const files = (key: string) => entityItems.get(key) ?? 0;
  const keys = [...new Set(subject.entities.filter((entity) => entity.type !== 'date').map((entity) => entity.key))]
    .filter((key) => holders.has(key) && files(key) >= TEMPLATE_MIN_FILES)
    .sort((a, b) => files(a) - files(b) || a.localeCompare(b))
    .slice(0, TEMPLATE_NAMES_CHECKED);
  const names = new Map<string, TemplateName>();
  for (const key of keys) {
    const places = templatePlaces(await store.entityMentionContexts(key, null, MENTION_REACH, MENTIONS_READ));
    if (places.size === 0) continue;
    const pairFiles = [subject.item.id, ...holders.get(key)!];
    const items = filesGivingOnlyTemplate(await store.entityMentionContexts(key, pairFiles, MENTION_REACH, MENTIONS_READ), places);
    if (items.size > 0) names.set(key, { items, files: Math.max(...places.values()) });
  }
  return names;
}
