// A generated workspace for the discovery benchmark: documents that name organisations and
// people drawn from pools that grow with the workspace (a few are everywhere, most are rare, as
// in real collections) and state a cost for one of many assets, so every candidate source
// (shared names, comparable claims, vector neighbours) has realistic work to do.

import { seededRandom } from './generateCorpus.ts';
import { writeFiles } from './tempFolder.ts';

const FILLER = (
  'the team reviewed the schedule and agreed the next steps with the site manager after the inspection ' +
  'of the loading area where the delivery was delayed by the weather and the supplier confirmed the order'
).split(' ');
const SURNAMES = 'Berg Okafor Raman Fischer Hollis Mendes Weber Osei Novak Silva Tanaka Moreau Kowalski Jensen Rossi Adeyemi'.split(' ');
const GIVEN = 'Anna Daniel Priya Lena Graham Carla Jonas Amara Petra Luis Kenji Claire Marek Freja Marco Tunde'.split(' ');
const FORMS = ['Ltd', 'GmbH', 'Inc.', 'LLC', 'S.A.'];
const ASSETS = 'crane conveyor dock roof sprinkler forklift racking gate lift compressor'.split(' ');

/** A log-uniform pick (P(k) ∝ 1/k): index 0 is common, the tail is rare. */
function zipf(random: () => number, size: number): number {
  return Math.min(size - 1, Math.floor(size ** random()) - 1);
}

export function writeDiscoveryCorpus(folder: string, count: number, seed = 7): void {
  const random = seededRandom(seed);
  const pick = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const organisations = Math.max(20, Math.floor(count / 4));
  const people = Math.max(20, Math.floor(count / 3));
  const assets = Math.max(10, Math.floor(count / 10));
  const organisation = (n: number) => `${SURNAMES[n % SURNAMES.length]} ${ASSETS[(n >> 4) % ASSETS.length]!.replace(/^./, (c) => c.toUpperCase())} Works ${n} ${FORMS[n % FORMS.length]}`;
  const person = (n: number) => `Ms. ${GIVEN[n % GIVEN.length]} ${SURNAMES[(n * 7) % SURNAMES.length]}-${n}`;
  const sentence = () => {
    const words = Array.from({ length: 10 + Math.floor(random() * 10) }, () => pick(FILLER));
    return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  };
  const files: Record<string, string> = {};
  for (let n = 0; n < count; n += 1) {
    const asset = zipf(random, assets);
    const assetName = `${ASSETS[asset % ASSETS.length]} unit ${asset}`;
    const orgs = [zipf(random, organisations), zipf(random, organisations), Math.floor(random() * organisations)];
    const names = [zipf(random, people), Math.floor(random() * people)];
    const day = 1 + Math.floor(random() * 28);
    const month = 1 + Math.floor(random() * 12);
    const cost = 1000 * (5 + Math.floor(random() * 60));
    files[`batch-${n % 20}/report-${n}.md`] = [
      `# Report ${n}: ${assetName}`,
      `Date: ${day} ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][month - 1]} 2025`,
      `${organisation(orgs[0]!)} and ${organisation(orgs[1]!)} met ${person(names[0]!)} about the ${assetName}. ${sentence()} ${sentence()}`,
      `The cost of the ${assetName} refurbishment is EUR ${cost.toLocaleString('en-GB')}. ${sentence()}`,
      `${person(names[1]!)} of ${organisation(orgs[2]!)} signed off. ${sentence()} ${sentence()}`,
    ].join('\n\n');
  }
  writeFiles(folder, files);
}
