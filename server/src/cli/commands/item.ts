// `relata item <path>`: one item with its versions, hash, parser version, flags, its own metadata
// and chunks (a byte-identical copy's path shows its original, saying so), and what the model
// stage added to it.

import path from 'node:path';
import { describeMetadata } from '../../../../shared/metadataText.ts';
import { brokenLinksWords } from '../../../../shared/linkText.ts';
import { MODEL_FOUND_LABEL, type ClaimView, type EntityView, type ItemLinksView } from '../../../../shared/types.ts';
import { describeLocation } from '../../../../shared/locationWords.ts';
import { languageName } from '../../embed/languages.ts';
import { itemDetail } from '../../engine/itemViews.ts';
import { COMMON_OPTIONS, COMMON_USAGE, type Command } from '../command.ts';
import { openExistingStore } from '../openStore.ts';
import { terminalLine } from '../terminalText.ts';
import { leavesFolder } from '../../workspace/folderBoundary.ts';
import { UsageError } from '../usage.ts';
import { EXIT_FAILURE } from '../usage.ts';

/**
 * What the model stage added to the item, said as such: the names and figures no rule found. The
 * rules' own findings are in --json (each entity and claim carries its producer).
 */
function modelFindings(entities: readonly EntityView[], claims: readonly ClaimView[]): string[] {
  const names = new Map<string, EntityView>();
  for (const entity of entities) if (entity.producer === 'model' && !names.has(entity.key)) names.set(entity.key, entity);
  const figures = claims.filter((claim) => claim.producer === 'model');
  if (names.size === 0 && figures.length === 0) return [];
  const by = [...names.values(), ...figures][0]!.extractorVersion;
  return [
    `${MODEL_FOUND_LABEL} (${terminalLine(by)}):`,
    ...(names.size > 0 ? [`  names: ${[...names.values()].map((entity) => `${terminalLine(entity.surface)} (${entity.type})`).join(', ')}`] : []),
    ...figures.map((claim) => `  figure: ${terminalLine(claim.attribute)} of ${terminalLine(claim.subject)}: ${claim.value}${claim.unit ? ` ${terminalLine(claim.unit)}` : ''}`),
  ];
}

export const itemCommand: Command = {
  name: 'item',
  summary: 'show one item: versions, hash, parser, flags, language, metadata, chunks',
  usage: `relata item <path> [--data DIR] [--workspace NAME] [--json]

  <path>            the file, absolute or relative to the current directory
${COMMON_USAGE}`,
  options: COMMON_OPTIONS,
  async run({ values, positionals, out, log }) {
    if (positionals.length !== 1) throw new UsageError('item needs exactly one file path');
    const absolute = path.resolve(positionals[0]!);
    const { store, root } = await openExistingStore(values, path.dirname(absolute), 'read');
    try {
      if (!root) throw new UsageError('this store records no indexed folder');
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      const item = leavesFolder(relative) ? null : await store.getItemByPath(relative);
      if (!item) {
        log(`not an item of ${terminalLine(root)}: ${terminalLine(absolute)}`);
        return EXIT_FAILURE;
      }
      const detail = await itemDetail(store, item);
      if (values.json) {
        out(JSON.stringify(detail, null, 2));
        return 0;
      }
      const lines = [
        ...(detail.identicalCopy ? [`${terminalLine(detail.identicalCopy)} is identical to ${terminalLine(detail.path)}, its original:`] : []),
        `${terminalLine(detail.title ?? detail.path)} (${terminalLine(detail.path)})`,
        `status ${detail.status}${detail.reason ? `: ${terminalLine(detail.reason)}` : ''}${detail.duplicateOf ? ` (duplicate of ${detail.duplicateOf})` : ''}`,
        `hash ${detail.contentHash ?? '-'}, parser ${detail.parserVersion ?? '-'}, version ${detail.version}` +
          (detail.flags.length ? `, flags ${detail.flags.join(', ')}` : ''),
        ...(detail.language ? [`language: ${detail.language === 'und' ? 'not determined' : `${detail.language} (${languageName(detail.language)})`}`] : []),
        ...(detail.metadata.length > 0 ? [`metadata: ${terminalLine(describeMetadata(detail.metadata))}`] : []),
        `versions: ${detail.versions.map((version) => `v${version.version} ${version.contentHash.slice(0, 12)} ${version.createdAt}`).join('; ') || 'none'}`,
        `chunks: ${detail.chunks.length}`,
        ...detail.chunks.map(
          (chunk) =>
            `  #${chunk.ordinal} ${terminalLine(describeLocation(chunk.location, detail.path))} ${terminalLine(chunk.headingPath.join(' › ')) || '-'}: ${terminalLine(chunk.firstWords)}`,
        ),
        ...(detail.hidden.length > 0 ? [`hidden text (left out of the chunks): ${detail.hidden.length}`] : []),
        ...detail.hidden.map(
          (finding) =>
            `  ${finding.kind.replace(/_/g, ' ')}, ${terminalLine(describeLocation(finding.location, detail.path))}: "${terminalLine(finding.text)}"` +
            (finding.instructions.length > 0 ? ' (addressed to an AI assistant)' : ''),
        ),
        ...modelFindings(detail.entities, detail.claims),
        ...linkLines(detail.links),
      ];
      out(lines.join('\n'));
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** "links: 5 to files of the folder, 12 to the web", then "2 links to files that are not in the folder:" and each, with where it stands. */
function linkLines(links: ItemLinksView | undefined): string[] {
  if (!links || (links.to_files.length === 0 && links.external === 0 && links.broken.length === 0)) return [];
  const lines = [`links: ${links.to_files.length} to files of the folder, ${links.external} to the web`];
  lines.push(...links.to_files.map((link) => `  ${link.place}: ${terminalLine(link.as_written)} → ${terminalLine(link.path)}`));
  if (links.broken.length > 0) {
    lines.push(`${brokenLinksWords(links.broken.length)}:`);
    lines.push(...links.broken.map((link) => `  ${link.place}: ${terminalLine(link.as_written)} (${link.reason})`));
  }
  return lines;
}
