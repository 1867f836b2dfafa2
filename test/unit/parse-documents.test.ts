// Every evaluation PDF and DOCX must end as parsed or as a ParseError with a reason: never
// another error type, never a hang. Prints the outcome table. The parsers are what is walked
// here, so pages without a text layer are not read by OCR (`ocr: false`, as `--no-ocr` does):
// OCR of these scans is proven where it is the subject (parse-pdf, integration/cli, ocr), and at
// ~4 s of CPU a page it was most of this test's cost.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseFile } from '../../server/src/parse/registry.ts';
import { ParseError } from '../../server/src/parse/types.ts';
import { DOCUMENTS_DIR, skipUnless } from './parse-eval.ts';

// The time-out only catches a hang, so it leaves a machine at load 30+ room too.
test('every evaluation document is parsed or fails with a ParseError', { skip: skipUnless(DOCUMENTS_DIR), timeout: 30 * 60_000 }, async (t) => {
  const rows: { file: string; outcome: string; ms: number }[] = [];
  const started = performance.now();
  for (const folder of ['pdf', 'docx']) {
    const files = fs.readdirSync(path.join(DOCUMENTS_DIR, folder)).filter((f) => f.endsWith(`.${folder}`)).sort();
    assert.ok(files.length > 0);
    for (const file of files) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(DOCUMENTS_DIR, folder, file)));
      const begun = performance.now();
      let outcome: string;
      try {
        const doc = await parseFile(bytes, file, { ocr: false });
        assert.equal(doc.text, doc.blocks.map((b) => b.text).join('\n\n'));
        outcome = `ok${doc.flags.length ? ` [${doc.flags.join(', ')}]` : ''} (${doc.blocks.length} blocks)`;
      } catch (error) {
        assert.ok(error instanceof ParseError, `${folder}/${file}: ${String(error)} is not a ParseError`);
        assert.ok(!/\n\s+at /.test(error.message), 'no stack in the reason');
        outcome = `error: ${error.message}`;
      }
      rows.push({ file: `${folder}/${file}`, outcome, ms: Math.round(performance.now() - begun) });
    }
  }
  const width = Math.max(...rows.map((r) => r.file.length));
  for (const row of rows) t.diagnostic(`${row.file.padEnd(width)}  ${String(row.ms).padStart(5)} ms  ${row.outcome}`);
  t.diagnostic(`full pass: ${rows.length} files in ${Math.round(performance.now() - started)} ms`);
});
