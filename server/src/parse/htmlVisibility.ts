// Markdown may carry raw HTML, and HTML can hide text from a reader: a comment, an element with
// `hidden` or `display:none`, a `<script>`. Prompt injections hide there. This follows the HTML
// of one document in order, across its fragments (a `<div hidden>` block may wrap Markdown
// paragraphs), so the Markdown parser can tell for each piece of text whether a reader sees it,
// and reports what they do not see instead of dropping it silently.

import { Parser } from 'htmlparser2';
import type { Location } from '../../../shared/types.ts';
import { hiddenText } from './document.ts';
import type { HiddenText, HiddenTextKind } from './types.ts';

/** Elements whose content a browser never renders. */
const UNRENDERED = new Set(['script', 'style', 'template', 'noscript']);

/** CSS declarations that make an element and its content invisible. */
function hidesContent(style: string): boolean {
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).replace(/!important/i, '').trim().toLowerCase();
    if (property === 'display' && value === 'none') return true;
    if (property === 'visibility' && (value === 'hidden' || value === 'collapse')) return true;
    if ((property === 'font-size' || property === 'opacity') && /^(?:0+\.?0*|\.0+)(?:[a-z%]+)?$/.test(value)) return true;
  }
  return false;
}

export function isHiddenElement(name: string, attributes: Readonly<Record<string, string>>): boolean {
  return UNRENDERED.has(name) || 'hidden' in attributes || hidesContent(attributes.style ?? '');
}

interface OpenElement {
  name: string;
  /** Opened by inline HTML inside a paragraph: the paragraph's end closes it, as in a browser. */
  inline: boolean;
}

export class HtmlVisibility {
  readonly findings: HiddenText[] = [];
  private readonly parser: Parser;
  private readonly open: OpenElement[] = [];
  /** Index in `open` of the outermost hidden element, or -1 while the text is visible. */
  private hiddenAt = -1;
  private hiddenParts: string[] = [];
  private hiddenLocation: Location | null = null;
  private visibleParts: string[] = [];
  private inline = false;
  private location: Location = { kind: 'lines', start: 1, end: 1 };

  constructor() {
    this.parser = new Parser(
      {
        onopentag: (name, attributes) => {
          this.open.push({ name, inline: this.inline });
          if (this.hiddenAt < 0 && isHiddenElement(name, attributes)) {
            this.hiddenAt = this.open.length - 1;
            this.hiddenLocation = this.location;
          }
        },
        onclosetag: () => {
          this.open.pop();
          if (this.hiddenAt >= this.open.length) this.endHidden();
        },
        ontext: (text) => {
          (this.hiddenAt >= 0 ? this.hiddenParts : this.visibleParts).push(text);
        },
        oncomment: (text) => {
          const finding = hiddenText('html_comment', text, this.location);
          if (finding) this.findings.push(finding);
        },
      },
      { decodeEntities: true },
    );
  }

  /** Whether text at this point of the document is inside a hidden element. */
  get hidden(): boolean {
    return this.hiddenAt >= 0;
  }

  /** Feeds one HTML fragment; returns the text of it a reader sees. */
  html(fragment: string, location: Location, inline: boolean): string {
    this.location = location;
    this.inline = inline;
    this.visibleParts = [];
    this.parser.write(fragment);
    return this.visibleParts.join('');
  }

  /** Markdown text at this point: returned if a reader sees it, else recorded and ''. */
  text(value: string, location: Location): string {
    if (this.hiddenAt < 0) return value;
    this.hiddenLocation ??= location;
    this.hiddenParts.push(value);
    return '';
  }

  /** A paragraph (or heading, cell, item) ended: inline elements still open close with it. */
  endInline(): void {
    while (this.open.length > 0 && this.open[this.open.length - 1]!.inline) {
      const depth = this.open.length;
      this.html(`</${this.open[depth - 1]!.name}>`, this.location, true);
      if (this.open.length >= depth) break; // The HTML parser did not take the close; never loop on it.
    }
  }

  /** The document ended: whatever is still hidden is reported. */
  finish(): HiddenText[] {
    this.parser.end();
    if (this.hiddenAt >= 0) this.endHidden();
    return this.findings;
  }

  private endHidden(): void {
    const kind: HiddenTextKind = 'hidden_element';
    const start = this.hiddenLocation ?? this.location;
    const location: Location =
      start.kind === 'lines' && this.location.kind === 'lines' ? { kind: 'lines', start: start.start, end: Math.max(start.end, this.location.end) } : start;
    const finding = hiddenText(kind, this.hiddenParts.join(' '), location);
    if (finding) this.findings.push(finding);
    this.hiddenAt = -1;
    this.hiddenParts = [];
    this.hiddenLocation = null;
  }
}
