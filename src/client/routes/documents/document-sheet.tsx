import { css } from '../../../../styled-system/css';
import { formatAddress, formatDateLong, formatDecimal, formatMoney } from '../../../shared/format';
import { formatTaxRate, type DocumentTotals } from '../../../shared/totals';
import { maturityLabel, NUMBER_LABELS, showsTotal } from '../../../shared/status';
import type { AppSettings } from '../../../shared/schemas/settings';
import type { Address } from '../../../shared/schemas/customer';
import type { DocumentType, KeyValue } from '../../../shared/schemas/document';
import { INVALID_DOCUMENT_NUMBER } from '../../../shared/numbering';
import { TYPE_LABELS } from './document-meta';

/** What the sheet shows: a saved document, or the editor's unsaved form with its live totals. */
export interface SheetDocument {
  type: DocumentType;
  kind?: 'standard' | 'deposit';
  number: string | null;
  date: string;
  maturity: string | null;
  condition: string;
  header: string;
  footer: string;
  terms: string;
  note: string;
  currency: string;
  additional_info: KeyValue[];
  deposit_request: { description: string; amount: number }[];
  items: { item: string; description: string; quantity: number; unit: string; unit_price: number; taxes: { title: string; rate: number }[]; discount: number }[];
  seller: { name: string; identity?: string[]; address: Address; email?: string; phone?: string } | null;
  customer: { name: string; number?: string; address: Address; shipping?: Address; vat_number?: string; business_id?: string } | null;
  legal_mentions: string[];
  deposit_invoices?: { number: string | null; total: number }[];
  credited?: number;
}

const styles = {
  sheet: css({ bg: 'white', color: '#1B1F24', borderRadius: 'card', boxShadow: 'card', p: { base: '5', md: '10' }, maxW: '900px', mx: 'auto', fontSize: 'sm', lineHeight: '1.5', display: 'flex', flexDirection: 'column', gap: '6' }),
  top: css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' }, gap: '6' }),
  title: css({ fontSize: '2xl', fontWeight: '800', letterSpacing: '-0.01em' }),
  label: css({ fontSize: 'xs', fontWeight: '700', textTransform: 'uppercase', letterSpacing: '0.06em', color: '#5B6470', mb: '1' }),
  table: css({ w: 'full', borderCollapse: 'collapse', '& th': { textAlign: 'left', fontSize: 'xs', textTransform: 'uppercase', color: '#5B6470', bg: '#F0F2F5', px: '2', py: '2' }, '& td': { px: '2', py: '2', borderBottom: '1px solid #E6E8EB', verticalAlign: 'top' } }),
  num: css({ textAlign: 'right', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  totals: css({ ml: 'auto', minW: '280px', display: 'flex', flexDirection: 'column', gap: '1', '& div': { display: 'flex', justifyContent: 'space-between', gap: '6' }, '& span:last-child': { fontVariantNumeric: 'tabular-nums' } }),
  strong: css({ fontWeight: '800', fontSize: 'md', borderTop: '1px solid #C4CAD1', pt: '1' }),
  mentions: css({ fontSize: 'xs', color: '#5B6470', borderTop: '1px solid #E6E8EB', pt: '3', display: 'flex', flexDirection: 'column', gap: '0.5' }),
  pre: css({ whiteSpace: 'pre-wrap' }),
};

/**
 * A plain, readable rendering of a document: every field and the legal mentions, with the organisation's money and
 * date formats. The paginated rendering from the template designer (Paramètres → Apparence) replaces it when built.
 */
export function DocumentSheet({ doc, totals, settings }: { doc: SheetDocument; totals: DocumentTotals; settings: AppSettings }) {
  const money = (n: number) => formatMoney(n, settings.currency_format, doc.currency);
  const address = (a: Address | undefined) => (a ? formatAddress(settings.address_format, a) : []);
  const name = doc.kind === 'deposit' ? 'Facture d’acompte' : TYPE_LABELS[doc.type].one;
  return (
    <article className={styles.sheet} aria-label="Aperçu du document">
      <div className={styles.top}>
        <div>
          {doc.seller && (
            <>
              <p className={css({ fontWeight: '800', fontSize: 'md' })}>{doc.seller.name}</p>
              {address(doc.seller.address).map((l, i) => (
                <p key={i}>{l}</p>
              ))}
              {doc.seller.email && <p>{doc.seller.email}</p>}
              {doc.seller.phone && <p>{doc.seller.phone}</p>}
            </>
          )}
        </div>
        <div className={css({ textAlign: { md: 'right' } })}>
          <h2 className={styles.title}>{name}</h2>
          <p>
            {NUMBER_LABELS[doc.type]} <strong>{doc.number ?? (doc.number === null ? 'Brouillon (numéroté à l’émission)' : INVALID_DOCUMENT_NUMBER)}</strong>
          </p>
          <p>Date : {formatDateLong(doc.date)}</p>
          {doc.maturity && (
            <p>
              {maturityLabel(doc.type)} : {formatDateLong(doc.maturity)}
            </p>
          )}
        </div>
      </div>
      {doc.customer && (
        <div className={styles.top}>
          <div />
          <div>
            <p className={styles.label}>Client</p>
            <p className={css({ fontWeight: '700' })}>{doc.customer.name}</p>
            {address(doc.customer.address).map((l, i) => (
              <p key={i}>{l}</p>
            ))}
            {doc.customer.business_id && <p>SIREN/SIRET : {doc.customer.business_id}</p>}
            {doc.customer.vat_number && <p>TVA : {doc.customer.vat_number}</p>}
          </div>
        </div>
      )}
      {doc.header && <p className={styles.pre}>{doc.header}</p>}
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Désignation</th>
            <th className={styles.num}>Qté</th>
            <th className={styles.num}>Prix unitaire</th>
            <th className={styles.num}>TVA</th>
            <th className={styles.num}>Total HT</th>
          </tr>
        </thead>
        <tbody>
          {doc.items.map((item, i) => (
            <tr key={i}>
              <td>
                <strong>{item.item}</strong>
                {item.description && <p className={styles.pre}>{item.description}</p>}
                {item.discount > 0 && <p className={css({ color: '#5B6470' })}>Remise : −{money(item.discount)}</p>}
              </td>
              <td className={styles.num}>
                {formatDecimal(item.quantity, 4, settings.currency_format.decimal).replace(/[,.]?0+$/, '')} {item.unit}
              </td>
              <td className={styles.num}>{money(item.unit_price)}</td>
              <td className={styles.num}>{item.taxes.map((t) => formatTaxRate(t.rate, settings.currency_format.decimal)).join(' + ') || '—'}</td>
              <td className={styles.num}>{money(totals.lines[i]?.gross_total ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {showsTotal(doc.type) && (
        <div className={styles.totals}>
          <div>
            <span>Sous-total HT</span>
            <span>{money(totals.subtotal)}</span>
          </div>
          {totals.discount !== 0 && (
            <div>
              <span>Remise</span>
              <span>−{money(totals.discount)}</span>
            </div>
          )}
          {totals.taxes.map((t) => (
            <div key={`${t.title}-${t.rate}`}>
              <span>{t.title}</span>
              <span>{money(t.amount)}</span>
            </div>
          ))}
          {totals.shipping !== 0 && (
            <div>
              <span>Frais de port</span>
              <span>{money(totals.shipping)}</span>
            </div>
          )}
          <div className={styles.strong}>
            <span>Total TTC</span>
            <span>{money(totals.total)}</span>
          </div>
          {doc.deposit_invoices?.map((d) => (
            <div key={d.number}>
              <span>Acompte facturé n° {d.number}</span>
              <span>−{money(d.total)}</span>
            </div>
          ))}
          {(doc.credited ?? 0) !== 0 && (
            <div>
              <span>Avoirs</span>
              <span>−{money(doc.credited!)}</span>
            </div>
          )}
          {totals.paid !== 0 && (
            <div>
              <span>Déjà payé</span>
              <span>−{money(totals.paid)}</span>
            </div>
          )}
          {(totals.deposits !== 0 || totals.paid !== 0 || (doc.credited ?? 0) !== 0) && (
            <div className={css({ fontWeight: '700' })}>
              <span>Reste à payer</span>
              <span>{money(totals.amount_due - (doc.credited ?? 0))}</span>
            </div>
          )}
          {doc.deposit_request.map((d, i) => (
            <div key={i}>
              <span>{d.description || 'Acompte'} demandé</span>
              <span>{money(d.amount)}</span>
            </div>
          ))}
        </div>
      )}
      {doc.condition && <p>Conditions de paiement : {doc.condition}</p>}
      {doc.terms && <p className={styles.pre}>{doc.terms}</p>}
      {doc.note && <p className={styles.pre}>{doc.note}</p>}
      {doc.additional_info.length > 0 && (
        <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 4' })}>
          {doc.additional_info.map((kv, i) => (
            <div key={i} className={css({ display: 'contents' })}>
              <dt className={css({ fontWeight: '700' })}>{kv.key}</dt>
              <dd>{kv.value}</dd>
            </div>
          ))}
        </dl>
      )}
      {doc.footer && <p className={styles.pre}>{doc.footer}</p>}
      {(doc.legal_mentions.length > 0 || doc.seller?.identity) && (
        <footer className={styles.mentions}>
          {doc.seller?.identity && <p>{doc.seller.identity.join(' · ')}</p>}
          {doc.legal_mentions.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </footer>
      )}
    </article>
  );
}
