// One panel per thing shown (a relationship): opening it again reveals the open panel instead of
// stacking identical tabs. Kept apart from VS Code so the reuse is tested without it.

export interface RegisteredPanel {
  /** Bring the panel forward (and refresh what it shows). */
  reveal(): void;
  /** Runs `listener` once, when the person closes the panel. */
  onClosed(listener: () => void): void;
}

export class PanelRegistry<P extends RegisteredPanel> {
  private readonly open = new Map<string, P>();

  /** The panel for `key`, revealed if it is open, else made by `create` and remembered until closed. */
  show(key: string, create: () => P): P {
    const existing = this.open.get(key);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = create();
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
