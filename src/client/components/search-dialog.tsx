import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { trpc } from '../trpc';
import { Dialog as ArkDialog, Portal } from '@ark-ui/react';
import { dialog } from '../../../styled-system/recipes';
import { searchStyles as styles } from './search-styles';
import { ui } from '../stores/ui';
import { BoxIcon, FileIcon, SearchIcon, UsersIcon } from './icons';
import { LIST_BASES } from '../../shared/status';
import type { DocumentType } from '../../shared/schemas/document';
import { Spinner } from './ui/spinner';
import { useDebounced } from '../lib/use-debounced';

const GROUPS = [
  { kind: 'customer', title: 'Clients', icon: UsersIcon, href: (r: { id: number }) => `/customers/${r.id}` },
  {
    kind: 'item',
    title: 'Articles',
    icon: BoxIcon,
    href: (r: { subtitle: string; title: string }) => `/items?search=${encodeURIComponent(r.subtitle || r.title)}`,
  },
  {
    kind: 'document',
    title: 'Documents',
    icon: FileIcon,
    href: (r: { id: number; document_type: string | null }) => `${LIST_BASES[(r.document_type ?? 'invoice') as DocumentType]}/${r.id}/view`,
  },
] as const;

/** Search dialog: 'Rechercher', an ESC button, the empty-state text; customers, items and documents, as links. */
export function SearchDialog() {
  const snap = useSnapshot(ui);
  const [query, setQuery] = useState('');
  const q = useDebounced(query.trim(), 200);
  const results = trpc.search.query.useQuery({ q }, { enabled: snap.search && q.length > 0, placeholderData: (p) => p });
  const [, navigate] = useLocation();
  // The row reached, for the results it was reached in: new results start again at the first (the one Enter opens).
  const [reached, setReached] = useState({ for: 0, index: 0 });
  const active = reached.for === results.dataUpdatedAt ? reached.index : 0;
  const setActive = (index: number) => setReached({ for: results.dataUpdatedAt, index });
  const close = () => {
    ui.search = false;
    setQuery('');
  };
  // The rows in the order shown (grouped), so that the arrow keys walk them as the eye reads them.
  const shown =
    results.data && q !== '' ? GROUPS.flatMap((g) => results.data.data.filter((r) => r.kind === g.kind).map((r) => ({ r, g }))) : [];
  const hrefOf = ({ r, g }: (typeof shown)[number]) => (g.href as (row: typeof r) => string)(r);
  const optionId = (index: number) => `search-option-${index}`;
  /** Keyboard: ↓/↑ move through the results, Enter opens the one reached; Escape closes (the dialog's own). */
  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (shown.length === 0) return;
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move) {
      event.preventDefault();
      const next = (active + move + shown.length) % shown.length;
      setActive(next);
      document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      setActive(event.key === 'Home' ? 0 : shown.length - 1);
    } else if (event.key === 'Enter') {
      const target = shown[Math.min(active, shown.length - 1)];
      if (!target) return;
      event.preventDefault();
      close();
      navigate(hrefOf(target));
    }
  };
  const listed = shown.length > 0;
  const frame = dialog({ placement: 'top' });
  return (
    <ArkDialog.Root open={snap.search} onOpenChange={(d) => !d.open && close()} lazyMount unmountOnExit>
      <Portal>
        <ArkDialog.Backdrop className={frame.backdrop} data-screenshot-hidden />
        <ArkDialog.Positioner className={frame.positioner} data-screenshot-hidden>
          <ArkDialog.Content className={frame.content} aria-label="Recherche">
            <div className={styles.field}>
              <SearchIcon />
              <input
                className={styles.input}
                placeholder="Rechercher"
                aria-label="Rechercher"
                role="combobox"
                aria-autocomplete="list"
                aria-expanded={listed}
                aria-controls={listed ? 'search-results' : undefined}
                aria-activedescendant={listed ? optionId(Math.min(active, shown.length - 1)) : undefined}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                onKeyDown={onKeyDown}
                autoComplete="off"
              />
              <button type="button" className={styles.esc} onClick={close} aria-label="Fermer la recherche (Échap)">
                ESC
              </button>
            </div>
            {query.trim() === '' ? (
              <div className={styles.body}>Les résultats de votre recherche apparaîtront ici</div>
            ) : listed ? (
              <div className={styles.results} id="search-results" role="listbox" aria-label="Résultats">
                {GROUPS.map((group) => {
                  const rows = shown.filter((entry) => entry.g.kind === group.kind);
                  if (rows.length === 0) return null;
                  const Icon = group.icon;
                  return (
                    // biome-ignore lint/a11y/useSemanticElements: a group of options in a listbox, not of form fields (which <fieldset> is for)
                    <div key={group.kind} role="group" aria-label={group.title}>
                      <p className={styles.group} aria-hidden="true">
                        {group.title}
                      </p>
                      {rows.map((entry) => {
                        const index = shown.indexOf(entry);
                        const { r } = entry;
                        return (
                          <Link
                            key={`${r.kind}-${r.id}`}
                            id={optionId(index)}
                            href={hrefOf(entry)}
                            className={styles.result}
                            onClick={close}
                            onMouseMove={() => setActive(index)}
                            role="option"
                            aria-selected={index === active}
                            tabIndex={-1}
                          >
                            <Icon size={18} />
                            <span className={styles.title}>{r.title}</span>
                            <span className={styles.subtitle}>{r.subtitle}</span>
                          </Link>
                        );
                      })}
                    </div>
                  );
                })}
              </div>
            ) : (
              <div className={styles.body} role="status">
                {results.isFetching || q !== query.trim() ? (
                  <Spinner size={18} label="Recherche en cours" />
                ) : (
                  <>Aucun client, article ni document ne correspond à « {query.trim()} ».</>
                )}
              </div>
            )}
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
