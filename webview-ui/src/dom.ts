// Building the webviews' DOM. Every piece of text goes through textContent, never innerHTML, so
// document text (titles, passages, claims) is shown literally whatever characters it holds.

export type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** A button-like link that runs `onClick` (no href, so nothing navigates). */
export function action(label: string, onClick: () => void, className = 'link'): HTMLButtonElement {
  const button = h('button', { type: 'button', class: className }, label);
  button.addEventListener('click', onClick);
  return button;
}

export function render(...children: Child[]): void {
  const app = document.getElementById('app')!;
  app.replaceChildren(...children.filter((child): child is Node | string => Boolean(child)));
}

export const figure = (value: number, digits = 2) => value.toFixed(digits);
