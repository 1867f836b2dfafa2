// Turns passages into the token ids a sentence-transformer reads, with @huggingface/tokenizers
// doing the tokenising. The library neither truncates nor pads, so this module truncates the
// passage's own tokens and then lets the tokenizer's post-processor add [CLS]/[SEP] (or
// whatever the model's template says), which keeps the closing [SEP] on truncated input.
// A folder with only vocab.txt (older BERT exports) gets the tokenizer.json Hugging Face itself
// would convert it to, so both layouts go through the same, well-tested tokenizer code.

import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { ModelFolderError, type TokenizerSource } from './modelFolder.ts';

export interface EncodedPassage {
  ids: number[];
  /** Segment ids from the post-processor (all 0 for a single passage). */
  typeIds: number[];
}

export class PassageTokenizer {
  /** Tokens the post-processor adds around a single passage ([CLS] and [SEP] for BERT). */
  readonly specialTokens: number;
  /** Id used to fill a batch's shorter rows; masked out, so only its validity matters. */
  readonly padId: number;
  private readonly unknownId: number;

  constructor(
    private readonly tokenizer: Tokenizer,
    padToken: string,
  ) {
    this.specialTokens = this.withSpecialTokens([]).tokens.length;
    const unknown = (tokenizer.model as { unk_token?: string } | null)?.unk_token;
    this.unknownId = (unknown === undefined ? undefined : tokenizer.token_to_id(unknown)) ?? 0;
    this.padId = tokenizer.token_to_id(padToken) ?? 0;
  }

  /** The passage's own tokens, without special tokens. */
  tokens(text: string): string[] {
    return this.tokenizer.tokenize(text, { add_special_tokens: false });
  }

  /** Ids for the model: the first `maxPassageTokens` of the passage's tokens, plus special tokens. */
  encode(text: string, maxPassageTokens: number): EncodedPassage {
    const { tokens, typeIds } = this.withSpecialTokens(this.tokens(text).slice(0, maxPassageTokens));
    return { ids: tokens.map((token) => this.tokenizer.token_to_id(token) ?? this.unknownId), typeIds };
  }

  private withSpecialTokens(tokens: string[]): { tokens: string[]; typeIds: number[] } {
    const processor = this.tokenizer.post_processor;
    if (!processor) return { tokens, typeIds: tokens.map(() => 0) };
    const processed = processor.post_process(tokens, null, true);
    return { tokens: processed.tokens, typeIds: processed.token_type_ids ?? processed.tokens.map(() => 0) };
  }
}

export function passageTokenizer(source: TokenizerSource, tokenizerConfig: Record<string, unknown>): PassageTokenizer {
  const padToken = specialToken(tokenizerConfig, 'pad_token', '[PAD]');
  try {
    const json = source.kind === 'tokenizer.json' ? source.json : bertTokenizerJson(source.vocab, tokenizerConfig);
    // The library requires every section to be present; files written by hand sometimes omit the empty ones.
    const sections = { added_tokens: [], normalizer: null, pre_tokenizer: null, post_processor: null, decoder: null };
    return new PassageTokenizer(new Tokenizer({ ...sections, ...json }, tokenizerConfig), padToken);
  } catch (error) {
    if (error instanceof ModelFolderError) throw error;
    throw new ModelFolderError(path.dirname(source.file), `cannot build a tokenizer from ${source.kind} (${(error as Error).message})`);
  }
}

/**
 * The tokenizer.json that Hugging Face's BertTokenizerFast builds from a vocab.txt: BERT
 * normaliser (lower-casing and accent stripping per do_lower_case, default on, as BertTokenizer's
 * default), BERT pre-tokeniser, WordPiece with "##" continuations, and [CLS] … [SEP] around the text.
 */
export function bertTokenizerJson(vocab: readonly string[], tokenizerConfig: Record<string, unknown>): Record<string, unknown> {
  const name = (key: string, fallback: string) => specialToken(tokenizerConfig, key, fallback);
  const cls = name('cls_token', '[CLS]');
  const sep = name('sep_token', '[SEP]');
  const unk = name('unk_token', '[UNK]');
  const ids = new Map(vocab.map((token, index) => [token, index] as const));
  for (const required of [cls, sep, unk]) {
    if (!ids.has(required)) throw new Error(`vocab.txt has no ${required} token`);
  }
  const specials = [name('pad_token', '[PAD]'), unk, cls, sep, name('mask_token', '[MASK]')].filter((token) => ids.has(token));
  const lowercase = typeof tokenizerConfig.do_lower_case === 'boolean' ? tokenizerConfig.do_lower_case : true;
  return {
    version: '1.0',
    added_tokens: specials.map((content) => ({
      id: ids.get(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: tokenizerConfig.tokenize_chinese_chars !== false,
      strip_accents: typeof tokenizerConfig.strip_accents === 'boolean' ? tokenizerConfig.strip_accents : null,
      lowercase,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'BertProcessing',
      cls: [cls, ids.get(cls)],
      sep: [sep, ids.get(sep)],
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: unk,
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(ids),
    },
  };
}

/** A special token's text from tokenizer_config.json, written either as "[PAD]" or as { "content": "[PAD]", ... }. */
function specialToken(tokenizerConfig: Record<string, unknown>, key: string, fallback: string): string {
  const value = tokenizerConfig[key];
  if (typeof value === 'string') return value;
  const content = (value as { content?: unknown } | null | undefined)?.content;
  return typeof content === 'string' ? content : fallback;
}
