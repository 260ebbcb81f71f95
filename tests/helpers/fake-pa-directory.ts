import type { FakeAnswer, FakePa } from './fake-pa';

/**
 * The fake platform's Directory Service as a store of directory lines: `GET /v1/siren/code-insee:{siren}` answers a
 * listed business's legal unit (404 otherwise), `POST /v1/directory-line/search` its lines by SIREN. Every request and
 * answer still goes through the fake's OpenAPI checks.
 */
export interface FakeDirectoryLine {
  addressingIdentifier: string;
  routingIdentifier?: string;
  status?: 'Enabled' | 'Disabled' | 'Upcoming';
}

export interface FakeDirectory {
  /** Lists a business: its name and its lines (one line at `<siren>` when none is given). */
  list(siren: string, businessName: string, lines?: FakeDirectoryLine[]): void;
  /** SIRENs looked up (GET by SIREN), in order. */
  lookups: string[];
}

const error = (status: number, errorCode: string, errorMessage: string): FakeAnswer => ({ status, body: { errorCode, errorMessage } });

export function serveDirectory(pa: FakePa): FakeDirectory {
  const businesses = new Map<string, { businessName: string; lines: FakeDirectoryLine[] }>();
  const directory: FakeDirectory = {
    lookups: [],
    list(siren, businessName, lines) {
      businesses.set(siren, { businessName, lines: lines ?? [{ addressingIdentifier: siren }] });
    },
  };

  pa.handle('directory', 'GET', '/v1/siren/code-insee:{siren}', (request) => {
    const siren = request.params.siren ?? '';
    directory.lookups.push(siren);
    const business = businesses.get(siren);
    if (!business) return error(404, 'NOT_FOUND', 'Unknown SIREN');
    return {
      status: 200,
      body: { siren, businessName: business.businessName, entityType: 'PrivateVatRegistered', administrativeStatus: 'A' },
    };
  });

  pa.handle('directory', 'POST', '/v1/directory-line/search', (request) => {
    const params = JSON.parse(request.body.toString('utf8')) as { filters?: { siren?: { value?: string } } };
    const siren = params.filters?.siren?.value;
    const business = siren ? businesses.get(siren) : undefined;
    const results = (business?.lines ?? []).map((line) => ({
      addressingIdentifier: line.addressingIdentifier,
      directoryLineStatus: line.status ?? 'Enabled',
      siren,
      ...(line.routingIdentifier
        ? { routingIdentifier: line.routingIdentifier, routingCode: { routingIdentifier: line.routingIdentifier } }
        : {}),
    }));
    return { status: 200, body: { totalNumberOfResults: results.length, results } };
  });

  return directory;
}
