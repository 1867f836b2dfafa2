// Judges the model's reply without trusting it. Whatever comes back (nothing, prose, half a JSON
// document, the schema echoed back, citations to sources that were never supplied) ends as either
// a usable answer whose citations all name supplied sources, or a rejection with a stated reason.
// A claim of sufficiency that cites nothing is downgraded, because an answer no source supports
// is exactly what "from stored knowledge" rules out.

import type { ProviderOutput } from './provider.ts';
import { SCHEMA_WORDS } from './schema.ts';

export interface ValidatedAnswer {
  answer: string | null;
  sufficient: boolean;
  /** Supplied labels the answer cites, in label order. */
  citations: string[];
  /** Distinct references to labels that were not supplied (or are not labels at all); dropped. */
  invalid_citations: number;
  rejected_reason: string | null;
}

const PREVIEW = 80;

function rejected(reason: string): ValidatedAnswer {
  return { answer: null, sufficient: false, citations: [], invalid_citations: 0, rejected_reason: reason };
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

/** A reply wrapped whole in one Markdown code fence is read as its content; anything else around the JSON is not. */
function unfence(text: string): string {
  const fenced = text.match(/^```(?:json)?[ \t]*\n([\s\S]*?)\n?```$/i);
  return fenced ? fenced[1]!.trim() : text;
}

function isSchemaEcho(reply: Record<string, unknown>): boolean {
  if ('properties' in reply || reply.type === 'object') return true;
  const answer = reply.answer;
  return typeof answer === 'string' && SCHEMA_WORDS.has(answer.trim().toLowerCase().replace(/[^a-z]/g, ''));
}

/** An inline citation marker with the whitespace before it: "[S2]", "[S1, S9]". */
const LABEL_GROUP = /(\s*)\[\s*(S\d+(?:\s*[,;]\s*S\d+)*)\s*\]/gi;

/** "S1", "[s1]", " S1 " → "S1"; anything else is returned trimmed, to be counted as invalid. */
function normaliseLabel(reference: string): string {
  const trimmed = reference.trim().replace(/^\[\s*|\s*\]$/g, '');
  return /^S\d+$/i.test(trimmed) ? trimmed.toUpperCase() : trimmed;
}

function labelNumber(label: string): number {
  return Number(label.slice(1));
}

export function validateOutput(output: ProviderOutput, suppliedLabels: readonly string[]): ValidatedAnswer {
  if (output.kind === 'malformed') return rejected(`the response held no model output: ${output.reason}`);
  const text = unfence(output.text.trim());
  if (text === '') return rejected('the model returned nothing');

  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return rejected(
      /^[{[]/.test(text)
        ? `the output is not valid JSON (malformed or cut off): "${preview(text)}"`
        : `the output is prose, not the JSON object that was asked for: "${preview(text)}"`,
    );
  }
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    return rejected(`the output is JSON but not an object: "${preview(text)}"`);
  }
  const fields = reply as Record<string, unknown>;
  if (isSchemaEcho(fields)) return rejected(`the output echoes the answer schema instead of answering: "${preview(text)}"`);
  if (typeof fields.answer !== 'string') return rejected('the output has no "answer" text');
  if (typeof fields.sufficient !== 'boolean') return rejected('the output has no "sufficient" field of true or false');
  if (!Array.isArray(fields.citations)) return rejected('the output has no "citations" list');
  if (fields.answer.trim() === '') return rejected('the answer is empty');

  const supplied = new Set(suppliedLabels);
  const valid = new Set<string>();
  const invalid = new Set<string>();
  const consider = (reference: string): boolean => {
    const label = normaliseLabel(reference);
    if (supplied.has(label)) valid.add(label);
    else invalid.add(label);
    return supplied.has(label);
  };
  for (const citation of fields.citations) consider(typeof citation === 'string' ? citation : JSON.stringify(citation));
  // Inline markers such as [S2] or [S1, S9]: unsupplied labels are removed from the text, not only from the list.
  const answer = fields.answer
    .replace(LABEL_GROUP, (_group, space: string, inner: string) => {
      const kept = inner.split(/\s*[,;]\s*/).filter((label) => consider(label));
      return kept.length > 0 ? `${space}[${kept.map((label) => label.toUpperCase()).join(', ')}]` : '';
    })
    .trim();
  if (answer === '') return { ...rejected('the answer holds nothing but citations to sources that were not supplied'), invalid_citations: invalid.size };

  const citations = [...valid].sort((a, b) => labelNumber(a) - labelNumber(b));
  return {
    answer,
    sufficient: fields.sufficient && citations.length > 0,
    citations,
    invalid_citations: invalid.size,
    rejected_reason: null,
  };
}
