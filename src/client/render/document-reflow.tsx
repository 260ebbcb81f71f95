import type { ReactNode } from 'react';
import { css } from '../../../styled-system/css';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { hasDistinctShipping, taxIdLabel } from '../../shared/legal-mentions';
import type { AppSettings } from '../../shared/schemas/settings';
import type { DocumentTemplate } from '../../shared/schemas/template';
import { maturityLabel, NUMBER_LABELS, showsTotal } from '../../shared/status';
import { unitWord } from '../../shared/french';
import { withFrenchSpaces } from '../../shared/typography';
import { documentNumber, documentTitle } from './labels';
import { renderContextOf, type RenderContext } from './render-context';
import { discountText } from './table-columns';
import { totalRows } from './totals-rows';
import { TransferBlock } from './transfer-block';
import type { RenderDocument, RenderLine } from './types';

/** Reading size on a phone whatever the app's own font setting: never below 14 px, 16 px for the body. */
const BODY = 'max(16px, 1rem)';
const SMALL = 'max(14px, 0.875rem)';

const styles = {
  root: css({
    w: 'full',
    bg: 'bg.surface',
    color: 'fg.default',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '4',
    display: 'flex',
    flexDirection: 'column',
    gap: '5',
    fontSize: BODY,
    lineHeight: '1.45',
    overflowWrap: 'anywhere',
  }),
  head: css({ display: 'flex', flexDirection: 'column', gap: '1' }),
  title: css({ fontSize: 'max(22px, 1.4rem)', fontWeight: '700', lineHeight: '1.2' }),
  number: css({ fontWeight: '600' }),
  pdf: css({
    alignSelf: 'flex-start',
    mt: '2',
    display: 'inline-flex',
    alignItems: 'center',
    minH: '11',
    px: '4',
    borderRadius: 'md',
    borderWidth: '1px',
    borderColor: 'border.strong',
    fontWeight: '600',
    fontSize: SMALL,
    color: 'accent.fg',
    _hover: { bg: 'bg.subtle' },
  }),
  section: css({ display: 'flex', flexDirection: 'column', gap: '1' }),
  heading: css({
    fontSize: SMALL,
    fontWeight: '700',
    letterSpacing: '0.04em',
    textTransform: 'uppercase',
    color: 'fg.muted',
  }),
  strong: css({ fontWeight: '700' }),
  muted: css({ color: 'fg.muted', fontSize: SMALL }),
  pre: css({ whiteSpace: 'pre-wrap' }),
  pairs: css({ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: '3', rowGap: '1', m: '0' }),
  term: css({ color: 'fg.muted' }),
  value: css({ m: '0', textAlign: 'right', fontVariantNumeric: 'tabular-nums' }),
  lines: css({ listStyle: 'none', m: '0', p: '0', display: 'flex', flexDirection: 'column' }),
  line: css({
    py: '3',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    _first: { borderTopWidth: '1px' },
  }),
  lineTop: css({ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: '3' }),
  amount: css({ fontWeight: '700', whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }),
  totals: css({ display: 'flex', flexDirection: 'column', m: '0' }),
  totalRow: css({
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'baseline',
    gap: '3',
    py: '1.5',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    '&[data-strong]': {
      fontWeight: '700',
      bg: 'bg.subtle',
      px: '2',
      borderBottomWidth: '0',
      borderTopWidth: '2px',
      borderTopColor: 'fg.default',
    },
  }),
  mentions: css({ fontSize: SMALL, color: 'fg.muted', display: 'flex', flexDirection: 'column', gap: '1' }),
  transfer: css({
    // The QR code is drawn on white for any phone's camera, dark theme included.
    '& [data-transfer-qr]': { bg: 'white', p: '1', borderRadius: 'sm' },
    '& span': { color: 'fg.muted' },
    '& strong': { color: 'fg.default' },
  }),
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section} aria-label={title}>
      <h2 className={styles.heading}>{title}</h2>
      {children}
    </section>
  );
}

function Pairs({ pairs }: { pairs: { key: string; label: string; value: string; strong?: boolean }[] }) {
  return (
    <dl className={styles.pairs}>
      {pairs.map((p) => (
        <div key={p.key} style={{ display: 'contents' }}>
          <dt className={styles.term}>{p.label}</dt>
          <dd className={styles.value} style={p.strong ? { fontWeight: 700 } : undefined}>
            {p.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function LineItem({ line, ctx }: { line: RenderLine; ctx: RenderContext }) {
  const { f, doc } = ctx;
  const unit = line.unit && line.unit !== 'u' ? ` ${unitWord(line.quantity, line.unit)}` : '';
  const reference = line.sku || line.code;
  const discount = discountText(line, f);
  const rates = line.taxes.map((t) => f.rate(t.rate)).join(' + ');
  return (
    <li className={styles.line} data-reflow-line="">
      <div className={styles.lineTop}>
        <span className={styles.strong}>{line.item || '—'}</span>
        <span className={styles.amount}>{f.money(line.total)}</span>
      </div>
      {reference && <div className={styles.muted}>Réf. {reference}</div>}
      {line.description.trim() && <div className={`${styles.muted} ${styles.pre}`}>{line.description}</div>}
      <div className={styles.muted}>
        {`${f.quantity(line.quantity)}${unit} × ${f.unitPrice(line.price)}${doc.vat ? ' HT' : ''}`}
        {discount && ` · remise ${discount}`}
        {doc.vat && rates && ` · TVA ${rates}`}
      </div>
    </li>
  );
}

/**
 * A document reflowed for a phone: the same data as its A4 pages (parties, dates, lines, totals, conditions, the
 * legal mentions) in one column at reading size, so that a customer need not pinch-zoom a shrunk page. The A4 file
 * stays one tap away (`pdfHref`).
 */
export function DocumentReflow({
  doc,
  template,
  settings,
  pdfHref,
}: {
  doc: RenderDocument;
  template: DocumentTemplate;
  settings: AppSettings;
  pdfHref?: string;
}) {
  const ctx = renderContextOf(doc, template, settings);
  const { f } = ctx;
  const type = DOCUMENT_TYPE_TABLE[doc.type];
  const seller = doc.seller;
  const customer = doc.customer;
  const rows = totalRows(doc, template.table.totals, f);

  const info = [
    { key: 'date', label: 'Date', value: f.date(doc.date) },
    ...(doc.sale_date && doc.sale_date !== doc.date ? [{ key: 'sale', label: 'Date de la vente', value: f.date(doc.sale_date) }] : []),
    ...(doc.maturity && type.hasMaturity ? [{ key: 'maturity', label: maturityLabel(doc.type), value: f.date(doc.maturity) }] : []),
    ...(customer?.number ? [{ key: 'customer', label: 'N° client', value: customer.number }] : []),
    ...(doc.purchase_order ? [{ key: 'order', label: 'Votre commande n°', value: doc.purchase_order }] : []),
  ];
  const pairs = [...doc.additional_info, ...(seller?.additional_info ?? [])];
  const shipping = customer && hasDistinctShipping(customer) ? customer.shipping : null;
  const identity = seller ? [...seller.identity, ...seller.identifications.map((kv) => `${kv.key} ${kv.value}`)] : [];

  return (
    <article className={styles.root} aria-label="Document" data-document-reflow="" data-render-ready="true">
      <header className={styles.head}>
        <h1 className={styles.title}>{documentTitle(doc)}</h1>
        <p className={styles.number}>
          {NUMBER_LABELS[doc.type]} {documentNumber(doc)}
        </p>
        {pdfHref && (
          <a className={styles.pdf} href={pdfHref} target="_blank" rel="noopener">
            Voir le PDF (A4)
          </a>
        )}
      </header>

      <Pairs pairs={info} />

      {seller && (
        <Section title="Émetteur">
          <span className={styles.strong}>{[seller.name, seller.legal_form].filter(Boolean).join(' ')}</span>
          {f.address(seller.address).map((l, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: printed address lines, no state
            <span key={i}>{l}</span>
          ))}
          {[seller.phone && `Tél. ${seller.phone}`, seller.mobile && `Mob. ${seller.mobile}`, seller.email, seller.web]
            .filter(Boolean)
            .map((l) => (
              <span key={l as string} className={styles.muted}>
                {l}
              </span>
            ))}
        </Section>
      )}

      <Section title={type.recipientLabel}>
        {customer ? (
          <>
            <span className={styles.strong}>{customer.name}</span>
            {customer.legal_name && customer.legal_name !== customer.name && <span>{customer.legal_name}</span>}
            {f.address(customer.address).map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: printed address lines, no state
              <span key={i}>{l}</span>
            ))}
            {customer.business_id && (
              <span className={styles.muted}>
                {`${customer.business_id.replace(/\D/g, '').length === 14 ? 'SIRET' : 'SIREN'} ${customer.business_id}`}
              </span>
            )}
            {customer.vat_number && <span className={styles.muted}>{`${taxIdLabel(customer)} ${customer.vat_number}`}</span>}
          </>
        ) : (
          <span className={styles.muted}>Aucun client choisi</span>
        )}
      </Section>

      {(shipping || doc.shipping_details.trim()) && (
        <Section title="Adresse de livraison">
          {shipping &&
            f.address(shipping).map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: printed address lines, no state
              <span key={i}>{l}</span>
            ))}
          {doc.shipping_details.trim() && <span className={`${styles.muted} ${styles.pre}`}>{doc.shipping_details}</span>}
        </Section>
      )}

      {doc.header.trim() && <p className={styles.pre}>{doc.header}</p>}

      <Section title="Détail">
        <ul className={styles.lines} aria-label="Lignes du document">
          {doc.lines.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: printed lines in their order, no state
            <LineItem key={i} line={line} ctx={ctx} />
          ))}
        </ul>
      </Section>

      {showsTotal(doc.type) && rows.length > 0 && (
        <dl className={styles.totals} aria-label="Totaux du document" data-reflow-totals="">
          {rows.map((row) => (
            <div key={row.key} className={styles.totalRow} data-total={row.key} data-strong={row.strong ? '' : undefined}>
              <dt>{row.label}</dt>
              <dd className={styles.value}>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}

      {doc.deposit_request.length > 0 && (
        <Section title="Acompte demandé">
          {doc.deposit_request.map((d, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: printed requests in their order, no state
            <span key={i}>
              {d.description || 'Acompte'} : <strong>{f.money(d.amount)}</strong>
            </span>
          ))}
        </Section>
      )}
      {doc.condition.trim() && (
        <Section title={type.conditionsLabel}>
          <span className={styles.pre}>{doc.condition.trim()}</span>
        </Section>
      )}
      {pairs.length > 0 && <Pairs pairs={pairs.map((kv, i) => ({ key: `${i}`, label: kv.key, value: kv.value }))} />}
      {doc.transfer && (
        <div className={styles.transfer}>
          <TransferBlock transfer={doc.transfer} seller={seller?.name ?? null} />
        </div>
      )}
      {doc.terms.trim() && <p className={styles.pre}>{doc.terms}</p>}
      {doc.note.trim() && <p className={styles.pre}>{doc.note}</p>}
      {doc.footer.trim() && <p className={`${styles.muted} ${styles.pre}`}>{doc.footer}</p>}

      {(doc.legal_mentions.length > 0 || identity.length > 0) && (
        <footer className={styles.mentions} data-legal-mentions="">
          {doc.legal_mentions.map((m) => (
            <p key={m}>{withFrenchSpaces(/[.!?]$/.test(m) ? m : `${m}.`)}</p>
          ))}
          {identity.length > 0 && <p>{identity.join(' · ')}</p>}
        </footer>
      )}
    </article>
  );
}
