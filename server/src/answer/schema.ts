// The shape the model is asked to reply in, given to the local model as a grammar and to an
// endpoint as a JSON-schema response format. Asking is not trusting: validate.ts checks every
// reply against the same fields, because an endpoint may ignore the format and a grammar cut off
// by the token limit yields half a document.

export const ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    answer: { type: 'string' },
    sufficient: { type: 'boolean' },
    citations: { type: 'array', items: { type: 'string' } },
  },
  required: ['answer', 'sufficient', 'citations'],
  additionalProperties: false,
} as const;

/** Tokens a reply may take unless a provider is told otherwise: room for a paragraph and its citations. */
export const DEFAULT_MAX_TOKENS = 512;


/** Words a reply that echoes the schema instead of answering is made of. */
export const SCHEMA_WORDS: ReadonlySet<string> = new Set([
  ...Object.keys(ANSWER_SCHEMA.properties),
  'insufficient',
  'object',
  'string',
  'boolean',
  'array',
  'true',
  'false',
  'null',
]);
