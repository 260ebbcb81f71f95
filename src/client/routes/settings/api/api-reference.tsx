import { useEffect, useMemo, useState } from 'react';
import { css, cx } from '../../../../../styled-system/css';
import { Input } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { filterGroups, referenceGroups, type OpenApiDocument, type ReferenceOperation } from './openapi-reference';

const METHOD_COLORS: Record<string, string> = {
  GET: css({ bg: 'accent.subtle', color: 'accent.fg' }),
  POST: css({ bg: 'successSubtle', color: 'success' }),
  PUT: css({ bg: 'warningSubtle', color: 'warning' }),
  DELETE: css({ bg: 'dangerSubtle', color: 'danger' }),
};

const styles = {
  toolbar: css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' }),
  group: css({ borderTopWidth: '1px', borderColor: 'border.default' }),
  tag: css({
    fontFamily: 'mono',
    fontSize: 'sm',
    fontWeight: '700',
    color: 'fg.default',
    py: '2.5',
    cursor: 'pointer',
    _hover: { color: 'accent.fg' },
  }),
  count: css({ fontWeight: '600', fontSize: 'xs', color: 'fg.muted', ml: '1' }),
  operations: css({ display: 'flex', flexDirection: 'column', gap: '1', pb: '3' }),
  operation: css({
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'lg',
    '&[open]': { bg: 'bg.subtle' },
  }),
  summary: css({
    display: 'grid',
    gridTemplateColumns: { base: '64px 1fr', md: '64px minmax(0, 1fr) minmax(0, 1fr)' },
    gap: '3',
    alignItems: 'center',
    px: '3',
    py: '2',
    cursor: 'pointer',
    listStyle: 'none',
    '&::-webkit-details-marker': { display: 'none' },
    _hover: { bg: 'bg.subtle' },
  }),
  method: css({ fontFamily: 'mono', fontSize: 'xs', fontWeight: '700', textAlign: 'center', borderRadius: 'md', py: '0.5' }),
  path: css({ fontFamily: 'mono', fontSize: 'sm', overflowWrap: 'anywhere' }),
  description: css({ fontSize: 'sm', color: 'fg.muted', display: { base: 'none', md: 'block' } }),
  body: css({ px: '3', pb: '3', display: 'flex', flexDirection: 'column', gap: '2', fontSize: 'sm' }),
  table: css({
    w: 'full',
    borderCollapse: 'collapse',
    '& th': { textAlign: 'left', fontSize: 'xs', color: 'fg.muted', fontWeight: '600', py: '1', pr: '3' },
    '& td': { py: '1', pr: '3', borderTopWidth: '1px', borderColor: 'border.default', verticalAlign: 'top' },
  }),
  code: css({ fontFamily: 'mono', fontSize: 'xs', overflowWrap: 'anywhere' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
};

const WHERE_LABELS: Record<string, string> = { path: 'chemin', query: 'requête', header: 'en-tête', body: 'corps' };

function Operation({ operation }: { operation: ReferenceOperation }) {
  return (
    <details className={styles.operation} data-testid="api-operation">
      <summary className={styles.summary}>
        <span className={cx(styles.method, METHOD_COLORS[operation.method])}>{operation.method}</span>
        <span className={styles.path}>{operation.path}</span>
        <span className={styles.description}>{operation.summary}</span>
      </summary>
      <div className={styles.body}>
        {operation.summary && <p>{operation.summary}</p>}
        {operation.fields.length > 0 ? (
          <table className={styles.table}>
            <thead>
              <tr>
                <th>Champ</th>
                <th>Où</th>
                <th>Type</th>
                <th>Obligatoire</th>
              </tr>
            </thead>
            <tbody>
              {operation.fields.map((field) => (
                <tr key={`${field.where}:${field.name}`}>
                  <td className={cx(styles.code, css({ whiteSpace: 'nowrap' }))}>{field.name}</td>
                  <td>{WHERE_LABELS[field.where] ?? field.where}</td>
                  <td className={styles.code}>{field.type}</td>
                  <td>{field.required ? 'oui' : 'non'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className={styles.muted}>Aucun paramètre.</p>
        )}
        <p>
          Réponse <strong>{operation.success.status}</strong> : <span className={styles.code}>{operation.success.type}</span>
        </p>
      </div>
    </details>
  );
}

/** The reference itself, in its own chunk: fetched and drawn only when Paramètres → API is opened. */
export default function ApiReference() {
  const [document, setDocument] = useState<OpenApiDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [search, setSearch] = useState('');
  useEffect(() => {
    let live = true;
    fetch('/api/openapi.json')
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((json: OpenApiDocument) => live && setDocument(json))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, []);
  const groups = useMemo(() => (document ? referenceGroups(document) : []), [document]);
  const shown = useMemo(() => filterGroups(groups, search), [groups, search]);
  const count = groups.reduce((n, g) => n + g.operations.length, 0);

  if (failed) return <p className={styles.muted}>La référence de l’API n’a pas pu être chargée : rechargez la page.</p>;
  if (!document) return <Spinner label="Chargement de la référence de l’API" />;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      <div className={styles.toolbar}>
        <Input
          type="search"
          aria-label="Filtrer les chemins"
          placeholder="Filtrer : customers, POST, facture…"
          className={css({ maxW: '360px' })}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <span className={styles.muted}>
          {count} chemins · version {document.info?.version ?? '—'} ·{' '}
          <a href="/api/openapi.json" target="_blank" rel="noreferrer" className={css({ color: 'accent.fg', fontWeight: '600' })}>
            openapi.json
          </a>
        </span>
      </div>
      {shown.length === 0 && <p className={styles.muted}>Aucun chemin ne correspond à « {search} ».</p>}
      {shown.map((group) => (
        // Closed groups keep ~200 paths to a page of names; a search opens the groups it matched.
        <details key={`${group.tag}:${search !== ''}`} className={styles.group} open={search.trim() !== ''} data-testid="api-group">
          <summary className={styles.tag}>
            {group.tag} <span className={styles.count}>{group.operations.length}</span>
          </summary>
          <div className={styles.operations}>
            {group.operations.map((operation) => (
              <Operation key={`${operation.method} ${operation.path}`} operation={operation} />
            ))}
          </div>
        </details>
      ))}
    </div>
  );
}
