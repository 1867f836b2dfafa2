// Words search says the same way in the CLI, the search list and the Ask panel.

/** When no result is a strong match (SearchResponse.weak_match): relevance stays relative, this says what it cannot. */
export const WEAK_MATCH_NOTICE = 'No strong match; these are the closest items.';
