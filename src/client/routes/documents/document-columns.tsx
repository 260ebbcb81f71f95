import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { showsTotal, TYPE_LABELS } from '../../../shared/status';
import type { useMoney } from '../../lib/use-money';
import { listStyles } from '../../components/ui/list';
import type { ListColumn } from '../../components/ui/responsive-list';
import { StatusChip } from './status-chip';
import { openHref, type DocumentListEntry } from './document-row-actions';

const styles = {
  amount: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  draft: css({ fontStyle: 'italic', color: 'fg.muted', fontWeight: '500' }),
  muted: css({ color: 'fg.muted' }),
  type: css({ whiteSpace: 'nowrap' }),
  secondaryType: css({ color: 'fg.muted', whiteSpace: 'nowrap' }),
  statusCell: css({ display: 'flex', gap: '1', flexWrap: 'wrap', alignItems: 'center' }),
};

const none = () => <span className={styles.muted}>—</span>;

/** A deposit invoice says so wherever its type is named (CGI art. 289), as its own title does. */
const typeLabel = (doc: Pick<DocumentListEntry, 'type' | 'kind'>) =>
  doc.kind === 'deposit' ? 'Facture d’acompte' : TYPE_LABELS[doc.type].one;

/**
 * The columns every list of sales documents draws (a type's list, a customer's documents, the dashboard's latest),
 * in one order: Type, Numéro, Client, Date, the maturity, Total TTC, Reste dû, Statut; and where each sits on a
 * phone card: the number opens the document as the card's title, the total is its amount, the customer
 * (or the type, on a list without customers) its subtitle, the status beside it, the rest labelled details.
 * A screen picks the columns it shows; the sort keys only count on a list given a `sort`.
 */
export function documentColumns({
  money,
  type = false,
  customer = true,
  maturity,
  total = true,
  due = false,
  sent = true,
}: {
  money: ReturnType<typeof useMoney>;
  /** A Type column, for lists mixing the types. */
  type?: boolean;
  /** The Client column; a customer's own documents leave it out. */
  customer?: boolean;
  /** The maturity column's header (Échéance, Validité…), for a type that has one. */
  maturity?: string;
  /** Total TTC: '—' on a row whose type shows no total (a delivery note). */
  total?: boolean;
  /** Reste dû, for a type that receives payments. */
  due?: boolean;
  /** « Envoyé » beside the status of a document sent to its customer; the dashboard shows the status alone. */
  sent?: boolean;
}): ListColumn<DocumentListEntry>[] {
  const columns: (ListColumn<DocumentListEntry> | false)[] = [
    type && {
      key: 'type',
      label: 'Type',
      // Beside the customer the type is secondary (a detail line); without it, it is the card's subtitle.
      card: customer ? 'detail' : 'subtitle',
      className: customer ? styles.secondaryType : styles.type,
      cell: typeLabel,
    },
    {
      key: 'number',
      label: 'Numéro',
      sort: 'number',
      card: 'title',
      className: listStyles.number,
      cell: (doc) => (
        <Link href={openHref(doc)} className={listStyles.link}>
          {doc.status === 'draft' ? <span className={styles.draft}>Brouillon</span> : doc.number}
        </Link>
      ),
    },
    customer && { key: 'customer', label: 'Client', sort: 'customer', card: 'subtitle', cell: (doc) => doc.customer_name ?? none() },
    { key: 'date', label: 'Date', sort: 'date', className: listStyles.number, cell: (doc) => formatDateShort(doc.date) },
    maturity !== undefined && {
      key: 'maturity',
      label: maturity,
      sort: 'maturity',
      className: listStyles.number,
      cell: (doc) => (doc.maturity ? formatDateShort(doc.maturity) : none()),
    },
    total && {
      key: 'total',
      label: 'Total TTC',
      sort: 'total',
      align: 'right',
      card: 'amount',
      className: styles.amount,
      cell: (doc) => (showsTotal(doc.type) ? money(doc.total, doc.currency) : none()),
    },
    due && {
      key: 'due',
      label: 'Reste dû',
      align: 'right',
      cell: (doc) => (
        <span className={cx(styles.amount, (doc.status === 'draft' || doc.amount_due === 0) && styles.muted)}>
          {doc.status === 'draft' ? '—' : money(doc.amount_due, doc.currency)}
        </span>
      ),
    },
    {
      key: 'status',
      label: 'Statut',
      card: 'status',
      cell: (doc) =>
        sent ? (
          <span className={styles.statusCell}>
            <StatusChip status={doc.status} type={doc.type} />
            {doc.sent_at && doc.status !== 'draft' && <StatusChip status="sent" />}
          </span>
        ) : (
          <StatusChip status={doc.status} type={doc.type} />
        ),
    },
  ];
  return columns.filter((c): c is ListColumn<DocumentListEntry> => c !== false);
}
