// How a file's broken links are counted in words, the same in `relata item` and File Status.

/** "2 links to files that are not in the folder"; nothing when there are none. */
export function brokenLinksWords(count: number): string | undefined {
  if (count === 0) return undefined;
  return count === 1 ? '1 link to a file that is not in the folder' : `${count} links to files that are not in the folder`;
}
