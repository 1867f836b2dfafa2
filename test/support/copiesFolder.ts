// A folder where one document exists three times, as the near-duplicate tests need it: a budget
// memo, its byte-identical copy in an archive folder and a draft with one word added, beside an
// invoice that disagrees with the memo's cost and a note about something else.

const MEMO = `# Budget memo: crane refurbishment

Ms. Lena Fischer of Larkspur Logistics reviewed the refurbishment of gantry crane GC-2 by Example Ltd.
The refurbishment cost EUR 42,000 and was completed on 16 May 2025.
The budget for the work was EUR 45,000, so the project came in under budget.
`;

export const MEMO_PATHS = ['archive/budget-memo-old.md', 'drafts/budget-memo-v2.md', 'finance/budget-memo.md'];
export const INVOICE = 'finance/invoice.md';

export const COPIES_FOLDER: Record<string, string> = {
  'finance/budget-memo.md': MEMO,
  'archive/budget-memo-old.md': MEMO,
  'drafts/budget-memo-v2.md': MEMO.replace('reviewed the refurbishment', 'carefully reviewed the refurbishment'),
  [INVOICE]: `# Invoice from Example Ltd: crane refurbishment

Example Ltd invoiced Larkspur Logistics for the refurbishment of gantry crane GC-2.
The refurbishment cost EUR 51,500 and was completed on 16 May 2025.
Payment is due within 30 days.
`,
  'notes/canteen.md': '# Canteen opening hours\n\nThe canteen opens at 7:00 and closes at 15:00 on weekdays. Coffee is free.\n',
};

/** Every path a list shows, as an entry or named in an entry's `also`. */
export const shownPaths = (entries: readonly { path: string; also?: { path: string }[] }[]): string[] =>
  entries.flatMap((entry) => [entry.path, ...(entry.also ?? []).map((member) => member.path)]);
