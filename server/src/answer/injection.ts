// Finds passages that try to instruct the model, so that an attempt is reported to the person
// asking (with its label, what it looks like, and the offending sentence) rather than hidden,
// whatever the model did with it. The prompt's coded markers and untrusted framing are the
// defence; this is the other half. It reads each passage normalised exactly as the prompt
// normalises it (untrustedText.ts), so full-width letters, zero-width characters and bidi
// controls hide nothing from it, and before delimiters are neutralised, so forged markers and
// chat-template tokens are seen. Markdown comments, which the parser drops, never reach it.
// Detection is best-effort: a sentence that does not match is not proven harmless.

import type { InjectionWarning } from '../../../shared/types.ts';
import { sentenceEnds } from '../chunk/sentences.ts';
import { hasAngleRun, hasChatTemplateToken } from './delimiters.ts';
import { normaliseUntrusted } from './untrustedText.ts';

const MAX_TEXT = 300;

/** What a finding looks like, in the words shown to the user. */
export type AttemptKind =
  | 'overrides earlier instructions'
  | 'addressed to an AI'
  | 'changes the model\'s role'
  | 'orders the model'
  | 'asks for the system prompt'
  | 'chat role marker'
  | 'fake chat turn'
  | 'forged answer'
  | 'forged source marker'
  | 'chat-template token'
  | 'hidden comment';

interface SentencePattern {
  kind: AttemptKind;
  /** Tested against one sentence of one line. */
  test: (sentence: string) => boolean;
}

const matches = (pattern: RegExp) => (sentence: string) => pattern.test(sentence);

// Pieces of English patterns.
const AI = String.raw`(?:AI|A\.I\.|LLMs?|(?:large\s+)?language\s+models?|chat\s?bots?|bots?|AI\s+assistants?|assistants?|GPT|ChatGPT|Claude|Copilot|Gemini)`;
const EARLIER = String.raw`(?:previous|prior|preceding|above|earlier|foregoing|original|initial|existing|system|given)`;
const RULES = String.raw`(?:instructions?|prompts?|rules|directions|guidelines|directives|messages|commands|orders|constraints|guidance|programming|training|context)`;
/** "Disregard the previous instructions regarding the car park" is a person superseding a memo. */
const NOT_ABOUT = String.raw`(?!\s+(?:regarding|about|concerning|on|for|from|in\s+the\s+(?:memo|e-?mail|letter|manual)))`;

const PATTERNS: readonly SentencePattern[] = [
  {
    kind: 'overrides earlier instructions',
    test: matches(
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget|override|bypass|skip|set\s+aside|abandon)\s+(?:all\s+|any\s+|every\s+|each\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+|these\s+|those\s+)?` +
          String.raw`(?:${EARLIER}\s+)+${RULES}\b${NOT_ABOUT}`,
        'i',
      ),
    ),
  },
  {
    kind: 'overrides earlier instructions',
    test: matches(
      new RegExp(
        String.raw`\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:your\s+${RULES}|(?:that\s+|what\s+)?you\s+(?:were|have\s+been)\s+(?:told|given|instructed)|everything\s+(?:above|before))`,
        'i',
      ),
    ),
  },
  // German, French and Spanish: an override needs an earlier-rules adjective or a possessive, so
  // "ignorieren Sie die alte Preisliste" or "ignorez la version précédente" do not count.
  {
    kind: 'overrides earlier instructions',
    test: matches(
      /\b(?:ignorier\w*|missacht\w*|vergiss|vergessen)\s+(?:Sie\s+)?(?:bitte\s+)?(?:alle\s+|sämtliche\s+)?(?:(?:die|alle)\s+)?(?:(?:deine|ihre|eure)\s+(?:\p{L}+\s+)?|(?:vorherigen|vorigen|bisherigen|obigen|früheren|vorangegangenen|ursprünglichen)\s+)(?:Anweisungen|Instruktionen|Befehle|Regeln|Vorgaben|Anordnungen)\b/iu,
    ),
  },
  {
    kind: 'overrides earlier instructions',
    test: matches(
      /\b(?:ignore[rz]?|oublie[rz]?|oublions)\s+(?:toutes\s+|tous\s+)?(?:(?:tes|vos)\s+(?:instructions|consignes|directives|règles)|(?:les\s+|ces\s+)?(?:instructions|consignes|directives|règles|indications)\s+(?:précédentes|antérieures|ci-dessus|initiales|d'origine))/iu,
    ),
  },
  {
    kind: 'overrides earlier instructions',
    test: matches(
      /\b(?:ignora[rd]?|olvida[rd]?|descarta)\s+(?:todas\s+|todos\s+)?(?:(?:tus|sus)\s+(?:instrucciones|indicaciones|órdenes|reglas)|(?:las\s+|los\s+)?(?:instrucciones|indicaciones|órdenes|reglas|directrices)\s+(?:anteriores|previas|de\s+arriba|originales))/iu,
    ),
  },
  {
    kind: 'addressed to an AI',
    test: matches(
      new RegExp(String.raw`\b(?:note|message|attention|instructions?|request|memo)\s+(?:to|for)\s+(?:an?\s+|any\s+|all\s+|the\s+)?(?:AI|A\.I\.|LLMs?|(?:large\s+)?language\s+models?|chat\s?bots?|AI\s+assistants?|assistants?|GPT)\b`, 'i'),
    ),
  },
  { kind: 'addressed to an AI', test: matches(/\b(?:dear|hey|hello|hi)\s+(?:AI|LLM|language\s+model|chat\s?bot|assistant|ChatGPT|GPT|Claude|Copilot|Gemini)\b/i) },
  { kind: 'addressed to an AI', test: matches(new RegExp(String.raw`\bif\s+you\s+are\s+(?:an?\s+)?${AI}\b`, 'i')) },
  {
    kind: 'addressed to an AI',
    test: matches(
      /\b(?:AI|LLM|language\s+model|chat\s?bot)s?\s+(?:assistants?\s+)?(?:reading|processing|summari[sz]ing|answering|analy[sz]ing|parsing|indexing)\b/i,
    ),
  },
  { kind: 'addressed to an AI', test: matches(/^\s*(?:AI|LLM|AI\s+assistant|ChatGPT|Claude|Copilot|Gemini)\s*[:,]/i) },
  {
    kind: 'addressed to an AI',
    test: matches(
      /\b(?:Hinweis|Nachricht|Anweisungen?|Notiz)\s+(?:an|für)\s+(?:die\s+|alle\s+|eine\s+)?(?:KI|KI-\p{L}+|Sprachmodelle?|Chatbots?|Assistenten)\b|\b(?:wenn|falls)\s+du\s+(?:eine?\s+)?(?:KI|Sprachmodell|Chatbot|Assistent)\s+bist/iu,
    ),
  },
  {
    kind: 'addressed to an AI',
    test: matches(
      /\b(?:note|message|instructions?|consignes?)\s+(?:pour|à|aux)\s+(?:l'|les\s+|une?\s+)?(?:IA|assistants?|modèles?\s+de\s+langage|chatbots?)\b|\bsi\s+(?:tu\s+es|vous\s+êtes)\s+(?:une?\s+)?(?:IA|intelligence\s+artificielle|assistant|modèle|chatbot)/iu,
    ),
  },
  {
    kind: 'addressed to an AI',
    test: matches(
      /\b(?:nota|mensaje|instrucciones?|indicaciones?)\s+(?:para|a)\s+(?:la\s+|las\s+|los\s+|el\s+|una?\s+)?(?:IA|asistentes?|modelos?\s+de\s+lenguaje|chatbots?)\b|\bsi\s+(?:eres|usted\s+es)\s+(?:una?\s+)?(?:IA|inteligencia\s+artificial|asistente|modelo|chatbot)/iu,
    ),
  },
  {
    kind: 'changes the model\'s role',
    test: matches(
      new RegExp(
        String.raw`\byou\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?(?:${AI}|DAN|unrestricted|uncensored|jailbroken|bound\b|restricted\b|required\s+to\s+(?:cite|follow))|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|uncensored|jailbroken|DAN)\b`,
        'i',
      ),
    ),
  },
  {
    kind: 'changes the model\'s role',
    test: matches(
      /\b(?:du\s+bist|Sie\s+sind)\s+(?:jetzt|nun|ab\s+sofort|ab\s+jetzt|von\s+nun\s+an)\s+(?:ein|eine|der|die)\s+(?:\p{L}+\s+)?(?:Assistent\p{L}*|KI|Chatbot|Bot|Sprachmodell|Modell)\b|\b(?:tu\s+es|vous\s+êtes)\s+(?:maintenant|désormais|à\s+présent)\s+(?:une?)\s+(?:\p{L}+\s+)?(?:assistant|IA|chatbot|bot|modèle)|\b(?:ahora|a\s+partir\s+de\s+ahora|desde\s+ahora|de\s+ahora\s+en\s+adelante)\s*,?\s*(?:tú\s+)?eres\s+(?:una?)\s+(?:\p{L}+\s+)?(?:asistente|IA|chatbot|bot|modelo)/iu,
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      new RegExp(
        String.raw`\b(?:from\s+now\s+on|from\s+this\s+point\s+(?:on|forward)|henceforth|for\s+the\s+rest\s+of\s+(?:this|the)\s+conversation)\b[^.]*?(?:\b(?:answer|respond|reply|obey|pretend)\b|\bact\s+as\b|\byou\s+are\s+(?:DAN|an?\s+(?:\w+\s+)?${AI})\b)`,
        'i',
      ),
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      /\b(?:von\s+nun\s+an|ab\s+sofort|ab\s+jetzt)\b[^.]*\b(?:antworte\w*|bist\s+du|du\s+bist)\b|\b(?:à\s+partir\s+de\s+maintenant|désormais|dorénavant)\b[^.]*\b(?:réponds|répondez|tu\s+es|vous\s+êtes)\b|\b(?:a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante|desde\s+ahora)\b[^.]*\b(?:responde|responda|contesta|eres)\b/iu,
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      /\b(?:respond|reply|answer)\s+(?:only|solely|exclusively|just)\s+(?:with|in|using|by)\b|\b(?:only|just)\s+(?:respond|reply|answer|output)\s+(?:with|in)\b|\b(?:output|print|return|say)\s+only\s+(?:the\s+word|["'“])|\bantworte\w*\s+(?:nur|ausschließlich)\s+(?:mit|auf|in)\b|\bréponds?\w*\s+(?:uniquement|seulement)\s+(?:par|avec|en)\b|\b(?:responde|responda|contesta)\s+(?:solo|solamente|únicamente)\s+(?:con|en)\b/iu,
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      /\byou\s+(?:must|will|shall|should|are\s+to)\s+now\s+(?:respond|answer|reply|say|state|tell|claim|output|print|ignore|forget|act|pretend|obey|recommend|only|always|never)\b/i,
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      /\b(?:do\s+not|don't|never|must\s+not)\s+(?:mention|reveal|disclose|cite|refer\s+to|talk\s+about|say\s+anything\s+about|bring\s+up)\b[^.]*?\b(?:in\s+(?:your|the)\s+(?:answer|response|reply|summary|output)|(?:to\s+)?the\s+user|(?:other|second|first|any|this)\s+sources?|S\d+)\b/i,
    ),
  },
  {
    kind: 'orders the model',
    test: matches(
      /\b(?:in|when\s+(?:you\s+)?(?:write|writing|give|giving|compose|composing))\s+your\s+(?:answer|response|reply)\b[^.]*?\b(?:say|state|claim|write|mention|omit|do\s+not|don't|never|always|only)\b|\btell\s+the\s+user\b|\bwhen\s+the\s+user\s+asks\b/i,
    ),
  },
  {
    kind: 'asks for the system prompt',
    test: matches(
      /\b(?:(?:reveal|print|show|repeat|output|disclose|ignore|override|forget)\s+(?:the|this|my)|your)\s+system\s+prompt\b|\b(?:reveal|print|show|repeat|output|disclose)\s+(?:your|the)\s+(?:initial|hidden|original)\s+(?:prompt|instructions)\b/i,
    ),
  },
  {
    kind: 'chat role marker',
    test: matches(
      /^\s*(?:system|assistant|user|developer|human)\s*(?:message|prompt)?\s*:\s*(?:you\b|your\b|ignore|disregard|forget|from\s+now|always|never|do\s+not|don't|answer|respond|reply|say|tell|write|output|print|state|act\s+as|pretend|obey|follow)/i,
    ),
  },
  { kind: 'chat role marker', test: matches(/^\s*#+\s*(?:system|assistant|user|instruction|response|input)\s*:|^\s*(?:system|assistant)\s*:\s*$/i) },
  { kind: 'chat role marker', test: matches(/\b(?:new|updated|revised|real|actual)\s+(?:system\s+(?:instructions?|prompt|message)|instructions)\s*:/i) },
  {
    kind: 'fake chat turn',
    test: matches(/^\s*(?:assistant|AI)\s*:\s*(?:sure|certainly|of\s+course|understood|ok(?:ay)?|absolutely|got\s+it|as\s+an\s+AI|I\s+(?:will|'ll|can|understand))\b/i),
  },
  {
    kind: 'forged answer',
    test: matches(/^\s*(?:A|Answer|Assistant|AI|Antwort|Réponse|Respuesta)\s*:.*\[\s*S\d+(?:\s*[,;]\s*S\d+)*\s*\]|\{\s*"(?:answer|sufficient|citations)"\s*:/i),
  },
  { kind: 'forged source marker', test: hasAngleRun },
  { kind: 'forged source marker', test: matches(/\b(?:SOURCE|END(?:\s+SOURCE)?)\s+S\d+\b/) },
  { kind: 'chat-template token', test: hasChatTemplateToken },
];

/** A dialogue written into a document: a user's turn and then an assistant's reply. */
const USER_TURN = /^\s*(?:user|human)\s*:/im;
const ASSISTANT_TURN = /^\s*(?:assistant|AI|bot|GPT|ChatGPT)\s*:/i;

/**
 * A ">>>" opening a line is a Python prompt or a nested e-mail quote, not a marker; it is not
 * reported (the prompt neutralises it all the same). Anywhere else, and "<<<" anywhere, it is.
 */
const LINE_QUOTE_PREFIX = /^\s*(?:>{3,}\s*)+/;

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}

export interface InstructionAttempt {
  kind: AttemptKind;
  /** The sentence (or comment), normalised as the model reads it. */
  text: string;
}

/** The offending sentences (and hidden comments) of one passage, in order, each once, with what each looks like. */
export function findAttempts(passage: string): InstructionAttempt[] {
  const text = normaliseUntrusted(passage);
  const found: InstructionAttempt[] = [];
  const add = (kind: AttemptKind, sentence: string) => {
    const clipped = clip(sentence);
    if (clipped !== '' && !found.some((attempt) => attempt.text === clipped)) found.push({ kind, text: clipped });
  };
  for (const comment of text.matchAll(HTML_COMMENT)) add('hidden comment', `<!--${comment[1]}-->`);
  const visible = text.replace(HTML_COMMENT, ' ');
  const dialogue = USER_TURN.test(visible);
  for (const fullLine of visible.split('\n')) {
    const line = fullLine.replace(LINE_QUOTE_PREFIX, '');
    if (dialogue && ASSISTANT_TURN.test(line)) add('fake chat turn', line);
    // The chunker's sentence splitter: linear in the text, where ICU on one huge line (a hidden
    // comment of megabytes, scanned at parse time) is not.
    let start = 0;
    for (const end of sentenceEnds(line)) {
      const segment = line.slice(start, end);
      start = end;
      const pattern = PATTERNS.find((candidate) => candidate.test(segment));
      if (pattern) add(pattern.kind, segment);
    }
  }
  return found;
}

/** The offending sentences alone, for callers that scan text other than a retrieved passage. */
export function findInstructionAttempts(passage: string): string[] {
  return findAttempts(passage).map((attempt) => attempt.text);
}

export function detectInjections(sources: readonly { label: string; passage: string }[]): InjectionWarning[] {
  return sources.flatMap(({ label, passage }) => findAttempts(passage).map(({ kind, text }) => ({ label, kind, text })));
}
