import type { ReactNode } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import type { DocumentType } from '../../../shared/schemas/document';
import { baseOf } from './document-meta';

const styles = {
  bar: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', mb: '4' }),
  tabs: css({ display: 'flex', gap: '1', bg: 'bg.surface', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', p: '1' }),
  tab: css({
    px: '3',
    py: '1.5',
    borderRadius: 'md',
    fontSize: 'sm',
    fontWeight: '600',
    color: 'fg.muted',
    _hover: { color: 'fg.default', bg: 'bg.subtle' },
    '&[aria-current=page]': { bg: 'accent.subtle', color: 'accent.fg' },
  }),
  actions: css({ display: 'flex', alignItems: 'center', gap: '2', flexWrap: 'wrap' }),
};

/**
 * Editor tabs: Créer or Modifier, Aperçu, and Paiements (invoices that have an id). A new document's Aperçu
 * previews the form being typed, so moving between its tabs loses nothing and asks nothing.
 */
export function DocumentTabs({
  type,
  id,
  current,
  actions,
}: {
  type: DocumentType;
  id?: number;
  current: 'edit' | 'view' | 'payments';
  actions?: ReactNode;
}) {
  const base = baseOf(type);
  const tabs = [
    { key: 'edit', label: id ? 'Modifier' : 'Créer', href: id ? `${base}/${id}/edit` : `${base}/new/add` },
    { key: 'view', label: 'Aperçu', href: id ? `${base}/${id}/view` : `${base}/new/view` },
    ...(DOCUMENT_TYPE_TABLE[type].receivesPayments && id ? [{ key: 'payments', label: 'Paiements', href: `${base}/${id}/payments` }] : []),
  ];
  return (
    <div className={styles.bar}>
      <nav className={styles.tabs} aria-label="Onglets du document">
        {tabs.map((tab) => (
          <Link
            key={tab.key}
            href={tab.href}
            className={styles.tab}
            aria-current={tab.key === current ? 'page' : undefined}
            data-keeps-form={id ? undefined : ''}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <div className={styles.actions}>{actions}</div>
    </div>
  );
}
