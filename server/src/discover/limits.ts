// The bounds that keep discovering one item independent of the workspace's size: every source of
// candidates is an index look-up with a cap. Raising a cap buys recall at a cost per item that
// is still fixed; bench:discover shows the figures.

export interface CandidateLimits {
  /** Windows of the item whose nearest neighbours are looked up. */
  vectorWindows: number;
  /** Nearest windows per look-up. */
  neighboursPerWindow: number;
  /** Entity keys looked up, rarest first (a rare name says more about a pair). */
  entityKeys: number;
  /** Items taken per entity key. */
  itemsPerEntityKey: number;
  /** Claim attributes looked up. */
  claimAttributes: number;
  /** Items taken per claim attribute. */
  itemsPerClaimAttribute: number;
  /** Metadata values looked up (subject keys only), rarest first. */
  metadataValues: number;
  /** Items taken per metadata value. */
  itemsPerMetadataValue: number;
  /** Byte-identical items taken. */
  contentMatches: number;
  /** Existing relationships of the item re-scored, strongest first (their evidence may have changed). */
  existingRelationships: number;
  /**
   * Entity, phrase and metadata value frequencies are counted up to this many items. The discount
   * 1 / (1 + ln f) is 0.126 at 1,000 and 0.098 at 10,000: the difference is not worth a count that
   * grows with the workspace.
   */
  frequencyCap: number;
}

export const DEFAULT_LIMITS: Readonly<CandidateLimits> = Object.freeze({
  vectorWindows: 8,
  neighboursPerWindow: 10,
  entityKeys: 12,
  itemsPerEntityKey: 20,
  claimAttributes: 8,
  itemsPerClaimAttribute: 20,
  metadataValues: 8,
  itemsPerMetadataValue: 20,
  contentMatches: 10,
  existingRelationships: 50,
  frequencyCap: 1000,
});
