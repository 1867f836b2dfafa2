// Which panel shows a relationship: by default one panel for all of them, each opened in turn
// replacing the last (six proposals reviewed leave one tab, not six across editor groups); with
// `relata.relationshipPanel.reuse` off, one panel per relationship. Either way, opening what a panel
// already shows reveals it instead of stacking an identical tab. Kept apart from VS Code so the
// rules are tested without it.

export interface RegisteredPanel<T> {
  /** Bring the panel forward showing `target` (and refresh it). */
  reveal(target: T): void;
  /** Runs `listener` once, when the person closes the panel. */
  onClosed(listener: () => void): void;
}

/** The key of the panel a relationship opens in: the one shared panel, or its own. */
export function relationshipPanelKey(reuse: boolean, folder: string, id: string): string {
  return reuse ? 'relationship' : `${folder}|${id}`;
}

export class PanelRegistry<T, P extends RegisteredPanel<T>> {
  private readonly open = new Map<string, P>();

  /** The panel for `key`, revealed showing `target` if it is open, else made by `create` (showing `target`) and remembered until closed. */
  show(key: string, target: T, create: (target: T) => P): P {
    const existing = this.open.get(key);
    if (existing) {
      existing.reveal(target);
      return existing;
    }
    const panel = create(target);
    this.open.set(key, panel);
    panel.onClosed(() => {
      if (this.open.get(key) === panel) this.open.delete(key);
    });
    return panel;
  }

  get size(): number {
    return this.open.size;
  }
}

/** A relationship panel's tab title: the pair, each name cut so both fit a tab. */
export function relationshipTitle(from: { title: string | null; path: string }, to: { title: string | null; path: string }, chars = 24): string {
  const name = (ref: { title: string | null; path: string }) => {
    const full = ref.title ?? ref.path.split('/').pop() ?? ref.path;
    return full.length > chars ? `${full.slice(0, chars - 1)}…` : full;
  };
  return `${name(from)} ↔ ${name(to)}`;
}
