import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Dialog as ArkDialog, Portal } from '@ark-ui/react';
import { css } from '../../../styled-system/css';
import { ui } from '../stores/ui';
import { SearchIcon } from './icons';

const styles = {
  backdrop: css({ position: 'fixed', inset: '0', bg: 'rgba(10, 12, 16, 0.45)', zIndex: 'overlay' }),
  positioner: css({ position: 'fixed', inset: '0', display: 'flex', justifyContent: 'center', alignItems: 'flex-start', pt: { base: '4', md: '20' }, px: '4', zIndex: 'modal' }),
  content: css({ w: 'full', maxW: '600px', bg: 'bg.surface', borderRadius: 'card', boxShadow: 'overlay', overflow: 'hidden' }),
  field: css({ display: 'flex', alignItems: 'center', gap: '3', px: '4', h: '14', borderBottomWidth: '1px', borderColor: 'border.default', color: 'fg.muted' }),
  input: css({ flex: '1', h: 'full', bg: 'transparent', fontSize: 'md', color: 'fg.default', outline: 'none', _placeholder: { color: 'fg.subtle' } }),
  esc: css({ fontSize: 'xs', fontWeight: '700', px: '2', py: '1', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.strong', color: 'fg.muted', cursor: 'pointer', _hover: { bg: 'bg.subtle' } }),
  body: css({ px: '4', py: '8', textAlign: 'center', color: 'fg.muted', fontSize: 'sm', lineHeight: '1.6' }),
};

/**
 * SPEC §1 search dialog: 'Rechercher', an ESC button, and the empty-state text. Documents, customers and items
 * are not in the product yet, so a query says plainly that there is nothing to search rather than show results.
 */
export function SearchDialog() {
  const snap = useSnapshot(ui);
  const [query, setQuery] = useState('');
  const close = () => {
    ui.search = false;
    setQuery('');
  };
  return (
    <ArkDialog.Root open={snap.search} onOpenChange={(d) => !d.open && close()} lazyMount unmountOnExit>
      <Portal>
        <ArkDialog.Backdrop className={styles.backdrop} data-screenshot-hidden />
        <ArkDialog.Positioner className={styles.positioner} data-screenshot-hidden>
          <ArkDialog.Content className={styles.content} aria-label="Recherche">
            <div className={styles.field}>
              <SearchIcon />
              <input className={styles.input} placeholder="Rechercher" aria-label="Rechercher" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
              <button type="button" className={styles.esc} onClick={close} aria-label="Fermer la recherche (Échap)">
                ESC
              </button>
            </div>
            <div className={styles.body} role="status">
              {query.trim() === '' ? (
                'Les résultats de votre recherche apparaîtront ici'
              ) : (
                <>Aucun résultat pour « {query.trim()} » : la recherche couvrira les documents, les clients et les articles dès leur arrivée dans Facturier.</>
              )}
            </div>
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
