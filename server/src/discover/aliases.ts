// Candidate aliases: entity keys that probably name the same person. A surname or given name used
// alone ("Ms. Mendes") that matches exactly one full name in the workspace, and an e-mail address
// whose local part spells a person's name (amara.osei@… and Dr. Amara Osei). These are only
// proposals: nothing counts as evidence until a person confirms the alias.

import type { EntityType } from '../records/extraction.ts';
import type { AliasCandidate } from '../store/contract.ts';

/**
 * The only names findAliasCandidates reads: a pass reads these summaries alone, not every name of
 * the workspace (in a generated folder of 2,000 notes, 826 of 15,093 mentions; the whole read took
 * 75 ms there and grows with the folder, after every watched save).
 */
export const ALIAS_NAME_TYPES: readonly EntityType[] = ['person', 'email'];

export interface EntityName {
  key: string;
  type: string;
  surface: string;
}

const nameOf = (key: string) => key.slice(key.indexOf(':') + 1);
const words = (name: string) => name.split(/\s+/).filter(Boolean);

export function findAliasCandidates(entities: readonly EntityName[]): AliasCandidate[] {
  const people = entities.filter((entity) => entity.type === 'person');
  const fullNames = people.filter((person) => words(nameOf(person.key)).length >= 2);
  const candidates: AliasCandidate[] = [];

  for (const short of people.filter((person) => words(nameOf(person.key)).length === 1)) {
    const word = nameOf(short.key);
    const bySurname = fullNames.filter((full) => words(nameOf(full.key)).at(-1) === word);
    const byGivenName = fullNames.filter((full) => words(nameOf(full.key))[0] === word);
    const [match, ...others] = bySurname.length > 0 ? bySurname : byGivenName;
    // Two people share that name: which one is meant cannot be told from the name alone.
    if (!match || others.length > 0) continue;
    candidates.push({
      keyA: short.key,
      keyB: match.key,
      surfaceA: short.surface,
      surfaceB: match.surface,
      reason: `"${short.surface}" may be ${match.surface}: the only person in this workspace with that ${bySurname.length > 0 ? 'surname' : 'given name'}.`,
    });
  }

  const byTokens = new Map(fullNames.map((person) => [words(nameOf(person.key)).sort().join(' '), person]));
  for (const email of entities.filter((entity) => entity.type === 'email')) {
    const local = nameOf(email.key).split('@')[0] ?? '';
    const tokens = local.split(/[._-]+/).filter(Boolean).sort().join(' ');
    const person = byTokens.get(tokens);
    if (!person || !tokens.includes(' ')) continue;
    candidates.push({
      keyA: email.key,
      keyB: person.key,
      surfaceA: email.surface,
      surfaceB: person.surface,
      reason: `The address ${email.surface} spells the name ${person.surface}.`,
    });
  }
  return candidates;
}
