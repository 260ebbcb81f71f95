import { css } from '../../../../styled-system/css';
import { compactReference, printedReference } from '../../../shared/creditor-reference';
import { formatMoney } from '../../../shared/format';
import { printedIban } from '../../../shared/iban';
import type { AppSettings } from '../../../shared/schemas/settings';
import type { TransferView } from '../../../shared/schemas/transfer';
import { Button } from '../../components/ui/button';
import { copyText } from '../../lib/copy-text';

const styles = {
  card: css({
    // A phone shows the document shrunk to its width and cannot scan its own screen: what to type or copy is told
    // here at reading size. A wider screen reads it, and the code, on the document itself.
    hideFrom: 'md',
    w: 'full',
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '4',
    fontSize: 'sm',
  }),
  title: css({ fontWeight: '700', fontSize: 'md', mb: '2' }),
  list: css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: '3', rowGap: '1.5', alignItems: 'center' }),
  term: css({ color: 'fg.muted' }),
  value: css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', minW: '0' }),
  code: css({ fontWeight: '600', fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }),
};

/** « Payer par virement » on the public page of an invoice: beneficiary, IBAN, BIC, amount and reference, each copyable. */
export function TransferCard({ transfer, settings }: { transfer: TransferView; settings: AppSettings }) {
  const rows: { term: string; shown: string; copy?: { text: string; done: string; label: string } }[] = [
    { term: 'Bénéficiaire', shown: transfer.holder },
    { term: 'IBAN', shown: printedIban(transfer.iban), copy: { text: transfer.iban, done: 'IBAN copié', label: 'Copier l’IBAN' } },
    ...(transfer.bic ? [{ term: 'BIC', shown: transfer.bic }] : []),
    { term: 'Montant', shown: formatMoney(transfer.amount, settings.currency_format, 'EUR') },
    ...(transfer.reference
      ? [
          {
            term: 'Référence',
            shown: printedReference(transfer.reference),
            copy: { text: compactReference(transfer.reference), done: 'Référence copiée', label: 'Copier la référence' },
          },
        ]
      : []),
  ];
  return (
    <section aria-label="Payer par virement" data-testid="transfer-card" data-print-hidden className={styles.card}>
      <h2 className={styles.title}>Payer par virement</h2>
      <dl className={styles.list}>
        {rows.map(({ term, shown, copy }) => (
          <div key={term} className={css({ display: 'contents' })}>
            <dt className={styles.term}>{term}</dt>
            <dd className={styles.value}>
              <span className={styles.code}>{shown}</span>
              {copy && (
                <Button size="sm" variant="outline" aria-label={copy.label} onClick={() => void copyText(copy.text, copy.done)}>
                  Copier
                </Button>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
