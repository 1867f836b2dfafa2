// Office Open XML packages (XLSX, PPTX) name their parts through relationship files: a
// slide or sheet is found by the id its parent gives it, not by a fixed path. Shared by the XLSX
// and PPTX readers.

import path from 'node:path';
import { attr, descendants, parseXml } from './xmlTree.ts';
import type { ZipPackage } from './zipPackage.ts';

export interface Target {
  path: string;
  external: boolean;
}

/** A part's relationships (Id → target), resolved against the part's folder; empty when it has none. */
export async function relationships(zip: ZipPackage, part: string): Promise<Map<string, Target>> {
  const folder = path.posix.dirname(part);
  const relsPath = part === '' ? '_rels/.rels' : `${folder}/_rels/${path.posix.basename(part)}.rels`;
  const xml = await zip.text(relsPath.replace(/^\.\//, ''));
  const map = new Map<string, Target>();
  if (xml === null) return map;
  for (const rel of descendants(parseXml(xml, relsPath), 'Relationship')) {
    const id = attr(rel, 'Id');
    const target = attr(rel, 'Target');
    if (id === undefined || target === undefined) continue;
    const external = attr(rel, 'TargetMode') === 'External';
    const resolved = external ? target : target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(folder === '.' ? '' : folder, target));
    map.set(id, { path: resolved, external });
  }
  return map;
}

