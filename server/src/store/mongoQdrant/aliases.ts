// Entity aliases in MongoDB, with the SQLite store's semantics (sqlite/aliasTables.ts): candidate
// pairs of entity keys, stored once (keys in sorted order) and pending until a person decides; a
// new proposal never undoes a decision. Every write is one single-document upsert or update, so
// no write needs more than MongoDB's per-document atomicity.

import { createHash } from 'node:crypto';
import type { EntityAliasView, RelationshipStatus } from '../../../../shared/types.ts';
import type { AliasCandidate } from '../contract.ts';
import type { AliasExchange } from '../exchange/records.ts';
import { isDuplicateKey } from './duplicateKey.ts';
import type { AliasEntityHooks, AliasMaintenance, RecordImporter } from './hooks.ts';
import type { IndexSpec } from './collections.ts';
import type { ScopedCollection, ScopedDb } from './scope.ts';

export const ALIASES_COLLECTION = 'entity_aliases';

export interface AliasDocument {
  workspace: string;
  folder: string;
  id: string;
  keyA: string;
  keyB: string;
  surfaceA: string;
  surfaceB: string;
  reason: string;
  status: RelationshipStatus;
  createdAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
}

export const ALIAS_INDEXES: readonly IndexSpec[] = [
  { collection: ALIASES_COLLECTION, key: { workspace: 1, folder: 1, keyA: 1, keyB: 1 }, unique: true, name: 'entity_aliases_pair' },
  { collection: ALIASES_COLLECTION, key: { workspace: 1, folder: 1, id: 1 }, unique: true, name: 'entity_aliases_id' },
  { collection: ALIASES_COLLECTION, key: { workspace: 1, folder: 1, keyB: 1 }, unique: false, name: 'entity_aliases_key_b' },
];

/** The pair in sorted key order: how a pair is stored once whichever way it was proposed. */
export function orderedPair(a: { key: string; surface: string }, b: { key: string; surface: string }): [typeof a, typeof b] {
  return a.key < b.key ? [a, b] : [b, a];
}

/** The alias id, computed as sqlite/aliasTables.ts computes it (from the workspace and the sorted keys). */
export function aliasId(workspace: string, keyA: string, keyB: string): string {
  return `alias_${createHash('sha256').update(`${workspace}\n${keyA}\n${keyB}`).digest('hex').slice(0, 16)}`;
}

export function toAliasView(document: AliasDocument): EntityAliasView {
  return {
    id: document.id,
    a: { key: document.keyA, surface: document.surfaceA },
    b: { key: document.keyB, surface: document.surfaceB },
    reason: document.reason,
    status: document.status,
    created_at: document.createdAt,
    decided_by: document.decidedBy,
    decided_at: document.decidedAt,
    note: document.note,
  };
}

/** A view's fields as stored (the pair in sorted order, as SQLite's restore and import keep it). */
export function aliasFields(view: EntityAliasView): Omit<AliasDocument, 'workspace' | 'folder'> {
  const [a, b] = orderedPair(view.a, view.b);
  return {
    id: view.id,
    keyA: a.key,
    keyB: b.key,
    surfaceA: a.surface,
    surfaceB: b.surface,
    reason: view.reason,
    status: view.status,
    createdAt: view.created_at,
    decidedBy: view.decided_by,
    decidedAt: view.decided_at,
    note: view.note,
  };
}

const now = (): string => new Date().toISOString();

export class MongoAliases implements AliasMaintenance {
  private readonly aliases: ScopedCollection<AliasDocument>;

  constructor(
    private readonly db: ScopedDb,
    private readonly entities: AliasEntityHooks,
  ) {
    this.aliases = db.collection<AliasDocument>(ALIASES_COLLECTION);
  }

  /** Each new pair inserted pending; a pair already proposed, confirmed or rejected is left as it is. */
  async proposeAliases(candidates: readonly AliasCandidate[]): Promise<number> {
    const stamp = now();
    let added = 0;
    for (const candidate of candidates) {
      const [a, b] = orderedPair({ key: candidate.keyA, surface: candidate.surfaceA }, { key: candidate.keyB, surface: candidate.surfaceB });
      try {
        const result = await this.aliases.updateOne(
          this.aliases.filter({ keyA: a.key, keyB: b.key }),
          {
            $setOnInsert: {
              id: aliasId(this.db.scope.workspace, a.key, b.key),
              surfaceA: a.surface,
              surfaceB: b.surface,
              reason: candidate.reason,
              status: 'pending',
              createdAt: stamp,
              decidedBy: null,
              decidedAt: null,
              note: null,
            },
          },
          { upsert: true },
        );
        added += result.upsertedCount;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error; // another process proposed the pair at the same moment
      }
    }
    return added;
  }

  /** A decided alias carried from another store (`relata index --rebuild`): the decision wins over a pending proposal of the same pair. */
  async restoreAlias(alias: EntityAliasView): Promise<void> {
    const fields = aliasFields(alias);
    const filter = this.aliases.filter({ keyA: fields.keyA, keyB: fields.keyB });
    const update = {
      $set: { status: fields.status, decidedBy: fields.decidedBy, decidedAt: fields.decidedAt, note: fields.note },
      $setOnInsert: {
        id: aliasId(this.db.scope.workspace, fields.keyA, fields.keyB),
        surfaceA: fields.surfaceA,
        surfaceB: fields.surfaceB,
        reason: fields.reason,
        createdAt: fields.createdAt,
      },
    };
    try {
      await this.aliases.updateOne(filter, update, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await this.aliases.updateOne(filter, update); // proposed by another process meanwhile: the decision still wins
    }
  }

  async listAliases(status?: RelationshipStatus): Promise<EntityAliasView[]> {
    const filter = this.aliases.filter(status === undefined ? {} : { status });
    return (await this.aliases.find(filter, { sort: { keyA: 1, keyB: 1 } }).toArray()).map(toAliasView);
  }

  async decideAlias(id: string, decision: { status: 'confirmed' | 'rejected'; by: string; note: string | null }): Promise<EntityAliasView> {
    const decided = await this.aliases.findOneAndUpdate(
      this.aliases.filter({ id }),
      { $set: { status: decision.status, decidedBy: decision.by, decidedAt: now(), note: decision.note } },
      { returnDocument: 'after' },
    );
    if (!decided) throw new Error(`no alias ${id} in this workspace`);
    return toAliasView(decided);
  }

  /** For each key, the keys a person confirmed as its aliases (pairs in key order). */
  async confirmedAliases(keys: readonly string[]): Promise<Map<string, { key: string; surface: string }[]>> {
    const aliases = new Map<string, { key: string; surface: string }[]>();
    if (keys.length === 0) return aliases;
    const asked = new Set(keys);
    const add = (key: string, alias: { key: string; surface: string }) => aliases.set(key, [...(aliases.get(key) ?? []), alias]);
    const filter = this.aliases.filter({ status: 'confirmed', $or: [{ keyA: { $in: [...keys] } }, { keyB: { $in: [...keys] } }] });
    for (const found of await this.aliases.find(filter, { sort: { keyA: 1, keyB: 1 } }).toArray()) {
      if (asked.has(found.keyA)) add(found.keyA, { key: found.keyB, surface: found.surfaceB });
      if (asked.has(found.keyB)) add(found.keyB, { key: found.keyA, surface: found.surfaceA });
    }
    return aliases;
  }

  /**
   * After a document is forgotten, pending aliases naming an entity no remaining item mentions
   * would be the last place its names survive. A decided alias stays: it is a person's decision.
   */
  async dropUnmentioned(): Promise<void> {
    const pending = await this.aliases.find(this.aliases.filter({ status: 'pending' }), { projection: { id: 1, keyA: 1, keyB: 1 } }).toArray();
    if (pending.length === 0) return;
    const mentioned = await this.entities.mentionedKeys([...new Set(pending.flatMap((alias) => [alias.keyA, alias.keyB]))]);
    const unmentioned = pending.filter((alias) => !mentioned.has(alias.keyA) || !mentioned.has(alias.keyB)).map((alias) => alias.id);
    if (unmentioned.length > 0) await this.aliases.deleteMany(this.aliases.filter({ status: 'pending', id: { $in: unmentioned } }));
  }

  // Export and import ----------------------------------------------------------------------------

  /** Aliases in the order they were proposed. */
  async *exportAliases(): AsyncIterable<AliasExchange> {
    for await (const found of this.aliases.find(this.aliases.filter(), { sort: { createdAt: 1, _id: 1 } })) {
      yield { record: 'alias', ...toAliasView(found) };
    }
  }

  async holdsRecords(): Promise<boolean> {
    return (await this.aliases.findOne(this.aliases.filter())) !== null;
  }

  /** Aliases as exported, ids, times and decisions verbatim, written a thousand at a time. */
  importer(): RecordImporter<AliasExchange> {
    let batch: AliasExchange[] = [];
    const flush = async () => {
      const aliases = batch;
      batch = [];
      if (aliases.length > 0) await this.aliases.insertMany(aliases.map(({ record: _kind, ...view }) => this.aliases.document(aliasFields(view))));
    };
    return {
      add: async (record) => {
        batch.push(record);
        if (batch.length >= 1000) await flush();
      },
      finish: flush,
    };
  }
}
