// How text read by OCR is labelled: the parser puts the label in the heading path of every passage
// it read from page images, and search results and the command line show it beside the passage,
// so a quote from a scan never passes for text typed by its author.

/** "Read by OCR (96% confidence)", or "Page 3, read by OCR (96% confidence)" for a PDF page. */
export function ocrLabel(confidence: number, page?: number): string {
  return `${page === undefined ? 'Read' : `Page ${page}, read`} by OCR (${confidence}% confidence)`;
}

const LABEL = /^(?:Page \d+, read|Read) by OCR \((\d+)% confidence\)$/;

/** The passage's OCR label, as "read by OCR (96% confidence)", when its heading path carries one; else null. */
export function ocrLabelOf(headingPath: readonly string[]): string | null {
  for (const heading of headingPath) {
    const match = LABEL.exec(heading);
    if (match) return `read by OCR (${match[1]}% confidence)`;
  }
  return null;
}
