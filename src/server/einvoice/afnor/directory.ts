import { z } from 'zod';
import type { AfnorClient } from './client';
import { AfnorError } from './errors';
import type { AfnorAnswer } from './http';

/**
 * The Directory Service operations a customer's SIREN needs (XP Z12-013 Directory Service 1.3.0): `GET
 * /v1/siren/code-insee:{siren}` (getCompanyBySiren: the legal unit, 404 when the directory does not know it) and
 * `POST /v1/directory-line/search` by SIREN (its directory lines: the electronic addresses invoices are sent to, each
 * with its routing code when the business routes by service).
 */

export interface DirectoryAddress {
  electronic_address: string;
  routing_code?: string;
}

export interface DirectoryListing {
  siren: string;
  name: string;
  addresses: DirectoryAddress[];
}

const legalUnitSchema = z.object({ siren: z.string().optional(), businessName: z.string().optional() });
const lineSchema = z.object({
  addressingIdentifier: z.string().min(1).max(125),
  directoryLineStatus: z.enum(['Enabled', 'Disabled', 'Upcoming']).optional(),
  routingIdentifier: z.string().max(100).optional(),
  routingCode: z.object({ routingIdentifier: z.string().max(100).optional() }).optional(),
});
const linesSchema = z.object({ results: z.array(lineSchema).optional() });

function read<T>(answer: AfnorAnswer, schema: z.ZodType<T>, what: string): T {
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    throw new AfnorError('directory', 'garbage', `réponse illisible à ${what} (HTTP ${answer.status}, pas du JSON)`, answer.status);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(racine)'))].slice(0, 5).join(', ');
    throw new AfnorError(
      'directory',
      'garbage',
      `réponse non conforme à ${what} (HTTP ${answer.status} ; champs : ${fields})`,
      answer.status,
    );
  }
  return parsed.data;
}

/** The directory's listing of a SIREN, or null when the directory does not know it (404) or lists no active line. */
export async function lookupSiren(client: AfnorClient, siren: string): Promise<DirectoryListing | null> {
  let unit: z.infer<typeof legalUnitSchema>;
  try {
    const answer = await client.call('directory', {
      method: 'GET',
      path: `/v1/siren/code-insee:${encodeURIComponent(siren)}`,
    });
    unit = read(answer, legalUnitSchema, 'la consultation du SIREN');
  } catch (error) {
    if (error instanceof AfnorError && error.status === 404) return null;
    throw error;
  }
  const answer = await client.call('directory', {
    method: 'POST',
    path: '/v1/directory-line/search',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filters: { siren: { op: 'strict', value: siren } }, include: ['routingCode'], limit: 50 }),
  });
  const lines = (read(answer, linesSchema, 'la recherche des lignes d’annuaire').results ?? []).filter(
    // A disabled line links no platform: nothing can be sent there.
    (line) => line.directoryLineStatus !== 'Disabled',
  );
  if (lines.length === 0) return null;
  return {
    siren,
    name: unit.businessName ?? '',
    addresses: lines.map((line) => {
      const routing = line.routingIdentifier ?? line.routingCode?.routingIdentifier;
      return routing
        ? { electronic_address: line.addressingIdentifier, routing_code: routing }
        : { electronic_address: line.addressingIdentifier };
    }),
  };
}
