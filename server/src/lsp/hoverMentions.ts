// Which of an item's entity names sits under the hover: the entities the extract stage found in
// the item, looked up by their surface in the hovered line. A name counts only as a whole word
// ("Ana" is not found inside "Banana"), so the hover shows over the names Relata knows and
// nowhere else.

export interface NamedEntity {
  key: string;
  surface: string;
  type: string;
}

export interface MentionUnderCursor<E extends NamedEntity> {
  entity: E;
  /** Character offsets of the name in the line: [start, end). */
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_]/u;

function wholeWord(line: string, start: number, end: number): boolean {
  return !(start > 0 && WORD.test(line[start - 1]!) && WORD.test(line[start]!)) && !(end < line.length && WORD.test(line[end]!) && WORD.test(line[end - 1]!));
}

/** The entities whose name covers `character` in `line`, one per entity key, longest name first. */
export function mentionsUnderCursor<E extends NamedEntity>(entities: readonly E[], line: string, character: number): MentionUnderCursor<E>[] {
  const found = new Map<string, MentionUnderCursor<E>>();
  for (const entity of entities) {
    if (entity.surface === '' || found.has(entity.key)) continue;
    for (let at = line.indexOf(entity.surface); at >= 0; at = line.indexOf(entity.surface, at + 1)) {
      const end = at + entity.surface.length;
      if (character >= at && character <= end && wholeWord(line, at, end)) {
        found.set(entity.key, { entity, start: at, end });
        break;
      }
    }
  }
  return [...found.values()].sort((a, b) => b.end - b.start - (a.end - a.start));
}
