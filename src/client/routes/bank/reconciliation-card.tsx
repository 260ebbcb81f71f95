import { Link } from 'wouter';
import { css, cx } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { useMoney } from '../../lib/use-money';
import { listStyles } from '../../components/ui/list';
import { bankAmount, bankCard } from './bank-styles';

const styles = {
  card: bankCard,
  title: css({ fontWeight: '700', fontSize: 'md' }),
  muted: css({ color: 'fg.muted', fontSize: 'sm' }),
  summary: css({ display: 'grid', gridTemplateColumns: '1fr auto', gap: '1 6', maxW: '32rem', fontSize: 'sm' }),
  figure: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  total: css({ fontWeight: '700', borderTopWidth: '1px', borderColor: 'border.default', pt: '1' }),
  balanced: css({ fontSize: 'sm', fontWeight: '600', color: 'success' }),
  gap: css({ fontSize: 'sm', fontWeight: '600', color: 'warning' }),
  amount: bankAmount,
};

/**
 * The état de rapprochement of an account: what the bank says it holds on its latest statement, what the books say,
 * and each line that explains the difference — statement lines not booked yet, book movements on no statement.
 */
export function ReconciliationCard({ accountId }: { accountId: number }) {
  const money = useMoney();
  const query = trpc.bankAccounts.reconciliation.useQuery({ id: accountId });
  const r = query.data;
  if (query.isLoading) return <p className={listStyles.empty}>Chargement du rapprochement…</p>;
  if (!r) return null;
  if (!r.statement)
    return (
      <section className={styles.card} aria-label="Rapprochement">
        <h2 className={styles.title}>Rapprochement</h2>
        <p className={styles.muted}>
          Importez un relevé qui indique le solde du compte (camt.053 ou OFX) : le solde de la banque sera comparé à celui de vos comptes.
        </p>
      </section>
    );
  const eur = (n: number) => money(n, r.currency);
  const difference = r.difference ?? 0;
  return (
    <section className={styles.card} aria-label="Rapprochement">
      <h2 className={styles.title}>Rapprochement au {formatDateShort(r.statement.date)}</h2>
      <div className={styles.summary}>
        <span>Solde du relevé</span>
        <span className={styles.figure}>{eur(r.statement.balance)}</span>
        {r.book_balance !== null && (
          <>
            <span>Solde comptable</span>
            <span className={styles.figure}>{eur(r.book_balance)}</span>
            <span className={styles.total}>Écart</span>
            <span className={cx(styles.figure, styles.total)}>{eur(difference)}</span>
          </>
        )}
      </div>
      {r.opening && (
        <p className={styles.muted}>
          Solde comptable : solde avant la première opération importée ({eur(r.opening.balance)} au {formatDateShort(r.opening.date)}), plus
          les paiements et dépenses enregistrés jusqu’au {formatDateShort(r.statement.date)}.
        </p>
      )}
      {difference === 0 ? (
        <p className={styles.balanced}>Le relevé et vos comptes concordent.</p>
      ) : (
        <p className={styles.gap}>L’écart s’explique par les lignes ci-dessous.</p>
      )}
      {r.not_in_books.length > 0 && (
        <Details title="Opérations du relevé absentes de vos comptes">
          {r.not_in_books.map((l) => (
            <tr key={`line-${l.id}`}>
              <td className={css({ whiteSpace: 'nowrap' })}>{formatDateShort(l.date)}</td>
              <td>
                {l.label}
                <div className={styles.muted}>{l.reason}</div>
              </td>
              <td className={styles.amount}>{eur(l.amount)}</td>
            </tr>
          ))}
        </Details>
      )}
      {r.not_on_statement.length > 0 && (
        <Details title="Paiements enregistrés absents du relevé">
          {r.not_on_statement.map((m) => (
            <tr key={`${m.kind}-${m.id}-${m.date}`}>
              <td className={css({ whiteSpace: 'nowrap' })}>{formatDateShort(m.date)}</td>
              <td>
                <Link href={m.kind === 'invoice' ? `/invoices/${m.id}` : `/expenses/${m.id}`}>{m.label}</Link>
              </td>
              <td className={styles.amount}>{eur(m.amount)}</td>
            </tr>
          ))}
        </Details>
      )}
    </section>
  );
}

function Details({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <h3 className={css({ fontWeight: '600', fontSize: 'sm' })}>{title}</h3>
      <div className={listStyles.tableWrap}>
        <table className={listStyles.table}>
          <thead>
            <tr>
              <th>Date</th>
              <th>Libellé</th>
              <th className={css({ textAlign: 'right' })}>Montant</th>
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </div>
  );
}
