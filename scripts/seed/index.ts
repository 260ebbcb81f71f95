// Seeds an organisation's year through the typed tRPC client: its legal identity, ~30 customers, ~60 items and
// `documents` documents over the twelve months ending `today`. Shared by `npm run seed`, the bench and the tests.
import type { ApiClient } from '../api-client';
import { DocumentActions } from './actions';
import { SELLER_IDENTITY, seedCustomers } from './customers';
import { loadTaxRates, seedItems } from './items';
import { createRandom } from './random';
import { planDocuments } from './scenarios';

export interface SeedOptions {
  /** The pseudo-random seed: the same seed (and day) gives the same data. */
  seed?: number;
  /** How many documents to create (every type appears from about 20). */
  documents?: number;
  /** YYYY-MM-DD, the last day of the seeded year; defaults to the server's today (UTC). */
  today?: string;
  /**
   * Whether to write the seller's identity first (default). An API key may not change the organisation's settings:
   * seeded with one, the organisation keeps the identity it has.
   */
  identity?: boolean;
}

export interface SeedSummary {
  customers: number;
  items: number;
  documents: number;
  payments: number;
  requests: number;
  ms: { setup: number; documents: number; total: number };
}

export const DEFAULT_SEED = 20261;
export const DEFAULT_DOCUMENTS = 400;

/** `client` is logged in to the organisation to fill; it should hold no document yet (numbering is chronological). */
export async function seedOrganisation(client: ApiClient, options: SeedOptions = {}): Promise<SeedSummary> {
  const started = performance.now();
  const random = createRandom(options.seed ?? DEFAULT_SEED);
  const today = options.today ?? new Date().toISOString().slice(0, 10);

  if (options.identity !== false) await client.organization.update.mutate(SELLER_IDENTITY);
  const taxes = await loadTaxRates(client);
  const customers = await seedCustomers(client, random);
  const items = await seedItems(client, random, taxes);
  const setupDone = performance.now();

  const actions = new DocumentActions(client);
  const steps = planDocuments({ random, today, customers, items, taxes, actions }, options.documents ?? DEFAULT_DOCUMENTS);
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      throw new Error(`étape « ${step.label} » du ${step.date} : ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }
  const done = performance.now();
  return {
    customers: customers.length,
    items: items.length + 1, // the discontinued one too
    documents: options.documents ?? DEFAULT_DOCUMENTS,
    payments: actions.payments,
    requests: actions.requests + (options.identity !== false ? 2 : 1) + customers.length + items.length + 1,
    ms: { setup: setupDone - started, documents: done - setupDone, total: done - started },
  };
}
