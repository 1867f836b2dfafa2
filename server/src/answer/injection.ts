// Finds passages that try to instruct the model: "ignore previous instructions", text addressed to
// an AI assistant, chat-role or system-prompt markers, and hidden HTML comments. The prompt already
// tells the model to treat sources as data; this is the other half, so that an attempt is reported
// to the person asking (with its label and the offending sentence) rather than hidden, whatever
// the model did with it. It reads the passages exactly as the model sees them, so Markdown comments
// (which the parser drops) cannot reach the model and are not reported here.

import type { InjectionWarning } from '../../../shared/types.ts';

const MAX_TEXT = 300;

const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  // Overriding what the model was told.
  /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|preceding|above|earlier|foregoing|original|system)\s+(?:instructions?|prompts?|rules|directions|guidelines|directives|messages)\b/i,
  /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:of\s+)?your\s+(?:instructions?|prompts?|rules|guidelines|directives|programming|training)\b/i,
  // Text addressed to an AI assistant.
  /\b(?:note|message|attention|instructions?|request)\s+(?:to|for)\s+(?:an?\s+|any\s+|all\s+|the\s+)?(?:AI|A\.I\.|LLMs?|(?:large\s+)?language\s+models?|chat\s?bots?|assistants?|GPT)\b/i,
  /\b(?:dear|hey|hello|hi)\s+(?:AI|LLM|language\s+model|chat\s?bot|assistant|ChatGPT|GPT|Claude|Copilot|Gemini)\b/i,
  /\bif\s+you\s+are\s+an?\s+(?:AI|LLM|(?:large\s+)?language\s+model|chat\s?bot|AI\s+assistant|bot)\b/i,
  /\b(?:AI|LLM|language\s+model|chat\s?bot)s?\s+(?:assistants?\s+)?(?:reading|processing|summari[sz]ing|answering|analy[sz]ing)\b/i,
  /^\s*(?:AI|LLM|AI\s+assistant|ChatGPT|Claude|Copilot|Gemini)\s*[:,]/i,
  // Chat-role and system-prompt markers.
  /^\s*(?:system|assistant|user|developer)\s*:\s*(?:you|ignore|disregard|forget|from\s+now|always|never|do\s+not|don't|answer|respond|reply|say)\b/i,
  /<\|\s*(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\s*\|>/i,
  /\[\/?INST\]|<<\/?SYS>>/i,
  /^\s*#{2,}\s*(?:system|instructions?)\s*:?\s*$/i,
  /\b(?:(?:reveal|print|show|repeat|output|disclose|ignore|override|forget)\s+(?:the|this|my)|your)\s+system\s+prompt\b/i,
  /\b(?:new|updated|revised|real)\s+instructions\s*:/i,
];

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}

/** The offending sentences (and hidden comments) of one passage, in order, each once. */
export function findInstructionAttempts(passage: string): string[] {
  const found: string[] = [];
  const add = (text: string) => {
    const clipped = clip(text);
    if (clipped !== '' && !found.includes(clipped)) found.push(clipped);
  };
  for (const comment of passage.matchAll(HTML_COMMENT)) add(`<!--${comment[1]}-->`);
  const visible = passage.replace(HTML_COMMENT, ' ');
  for (const line of visible.split(/\r\n|\n|\r/)) {
    for (const { segment } of sentences.segment(line)) {
      if (INSTRUCTION_PATTERNS.some((pattern) => pattern.test(segment))) add(segment);
    }
  }
  return found;
}

export function detectInjections(sources: readonly { label: string; passage: string }[]): InjectionWarning[] {
  return sources.flatMap(({ label, passage }) => findInstructionAttempts(passage).map((text) => ({ label, text })));
}
