/** What the statistics share between the server and the screens. */

/**
 * The franchise en base thresholds (CGI art. 293 B) in force for 2025 and 2026, in euros of receipts over a calendar
 * year: sales of goods (and lodging) and services. The 2025 plan of a single 25 000 € threshold was abandoned.
 */
export const FRANCHISE_THRESHOLDS = { goods: 85_000, services: 37_500 } as const;
