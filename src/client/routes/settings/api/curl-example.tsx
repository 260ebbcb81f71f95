import { css } from '../../../../../styled-system/css';
import type { ApiKeyScope } from '../../../../shared/schemas/api-keys';

/** The curl lines of the page's example, with the user's own base URL and key. */
export function curlExamples(origin: string, secret: string, scope: 'read' | 'write'): string {
  const read = `curl ${origin}/api/customers \\\n  -H "Authorization: Bearer ${secret}"`;
  if (scope === 'read') return read;
  const write = `curl -X POST ${origin}/api/customers \\\n  -H "Authorization: Bearer ${secret}" \\\n  -H "Content-Type: application/json" \\\n  -d '{"name": "Dupont SA"}'`;
  return `${read}\n\n${write}`;
}

const pre = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  lineHeight: '1.6',
  bg: 'bg.canvas',
  color: 'fg.default',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.default',
  p: '3',
  overflowX: 'auto',
  whiteSpace: 'pre',
});

/** A first call to try, with this browser's own address (window.location.origin) and the given key. */
export function CurlExample({ secret, scope }: { secret: string; scope: ApiKeyScope }) {
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1.5' })}>
      <span className={css({ fontSize: 'sm', fontWeight: '600' })}>Essayez-la :</span>
      <pre className={pre} data-testid="curl-example">
        {curlExamples(window.location.origin, secret, scope)}
      </pre>
    </div>
  );
}
