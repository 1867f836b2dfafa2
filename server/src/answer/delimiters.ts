// What, inside untrusted text, could pass for the prompt's own structure: runs of angle brackets
// (the shape of a source marker) and the special tokens of chat templates (<|im_start|>, [INST],
// <<SYS>>, <start_of_turn>…), which a model reads as a change of speaker. The prompt neutralises
// them and the injection scan reports them, from this one definition.

const ANGLE_RUN = /<{3,}|>{3,}/g;

const CHAT_TEMPLATE_TOKEN =
  /<\|[^|<>\n]{1,40}\|>|\[\/?INST\]|<<\/?SYS>>|<\/?s>|<\/?(?:start_of_turn|end_of_turn|bos|eos)>/gi;

/** Test a single piece of text for either kind (fresh regexes: the shared ones are global). */
export function hasAngleRun(text: string): boolean {
  return new RegExp(ANGLE_RUN.source).test(text);
}

export function hasChatTemplateToken(text: string): boolean {
  return new RegExp(CHAT_TEMPLATE_TOKEN.source, 'i').test(text);
}

const LOOK_ALIKE: Record<string, string> = { '<': '‹', '>': '›', '[': '⟦', ']': '⟧' };

/** The same characters to a reader, but nothing a marker or a chat template can match. */
export function neutraliseDelimiters(text: string): string {
  const swap = (token: string) => token.replace(/[<>[\]]/g, (char) => LOOK_ALIKE[char]!);
  return text.replace(CHAT_TEMPLATE_TOKEN, swap).replace(ANGLE_RUN, swap);
}
