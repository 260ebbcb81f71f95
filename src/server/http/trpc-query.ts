/** What the typed client's door reads of a query string. */
export interface TrpcQuery {
  batch: string | null;
  input: string | null;
}

const NONE: TrpcQuery = Object.freeze({ batch: null, input: null });

/**
 * `batch` and `input` of a query string, as URLSearchParams reads them (the first of each; '+' a space, then
 * percent-decoding) without building its parser for every read the app sends: a name that is itself encoded, or a
 * value that is no strict UTF-8 percent-encoding, is left to URLSearchParams, whose answer is the one that counts.
 */
export function trpcQuery(search: string): TrpcQuery {
  if (search === '' || search === '?') return NONE;
  const query: TrpcQuery = { batch: null, input: null };
  for (let at = search.startsWith('?') ? 1 : 0; at <= search.length; ) {
    const ampersand = search.indexOf('&', at);
    const end = ampersand === -1 ? search.length : ampersand;
    const equals = search.indexOf('=', at);
    const nameEnd = equals === -1 || equals > end ? end : equals;
    const name = search.slice(at, nameEnd);
    if (name.includes('%') || name.includes('+')) return parsed(search);
    if ((name === 'batch' || name === 'input') && query[name] === null) {
      const value = search.slice(Math.min(nameEnd + 1, end), end);
      try {
        query[name] = decodeURIComponent(value.includes('+') ? value.replaceAll('+', ' ') : value);
      } catch {
        return parsed(search);
      }
    }
    at = end + 1;
  }
  return query;
}

function parsed(search: string): TrpcQuery {
  const params = new URLSearchParams(search);
  return { batch: params.get('batch'), input: params.get('input') };
}
