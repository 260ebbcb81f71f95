import type { CSSProperties } from 'react';
import { maturityLabel, NUMBER_LABELS, showsTotal } from '../../shared/status';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { TemplateElement } from '../../shared/schemas/template';
import { documentNumber } from './labels';
import { MUTED, RULE, type RenderContext } from './render-context';

type InfoElement = Extract<TemplateElement, { type: 'document_info' }>;

export interface InfoEntry {
  key: string;
  label: string;
  value: string;
  strong?: boolean;
}

/** The document_info entries its display flags ask for, each only when it has a value (with their labels). */
export function documentInfoEntries(element: InfoElement, ctx: RenderContext): InfoEntry[] {
  const { doc, f } = ctx;
  const d = element.display;
  const entries: InfoEntry[] = [];
  if (d.document_number) entries.push({ key: 'number', label: NUMBER_LABELS[doc.type], value: documentNumber(doc), strong: true });
  if (d.date) entries.push({ key: 'date', label: 'Date', value: f.date(doc.date) });
  if (d.date && doc.sale_date && doc.sale_date !== doc.date)
    entries.push({ key: 'sale', label: 'Date de la vente', value: f.date(doc.sale_date) });
  if (d.maturity && doc.maturity && DOCUMENT_TYPE_TABLE[doc.type].hasMaturity)
    entries.push({ key: 'maturity', label: maturityLabel(doc.type), value: f.date(doc.maturity) });
  if (d.customer_id && doc.customer?.number) entries.push({ key: 'customer', label: 'N° client', value: doc.customer.number });
  if (d.payment_method && doc.condition.trim()) entries.push({ key: 'payment', label: 'Règlement', value: doc.condition.trim() });
  if (d.total_document && showsTotal(doc.type)) {
    const due = doc.totals.amount_due !== doc.totals.total;
    entries.push({
      key: 'total',
      label: due ? 'Net à payer' : doc.totals.taxes.length > 0 ? 'Total TTC' : 'Total',
      value: f.money(due ? doc.totals.amount_due : doc.totals.total),
      strong: true,
    });
  }
  return entries;
}

const labelStyle: CSSProperties = { color: MUTED, whiteSpace: 'nowrap' };

/**
 * Layout 1: label and value side by side, one entry a line. Layout 2: a band of cells, label above value.
 * Layout 3: a boxed table, labels on a tinted column.
 */
export function DocumentInfo({
  element,
  ctx,
  align = 'left',
}: {
  element: InfoElement;
  ctx: RenderContext;
  align?: 'left' | 'center' | 'right';
}) {
  const entries = documentInfoEntries(element, ctx);
  if (entries.length === 0) return null;
  if (element.layout === 2) {
    return (
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: '0.4em 1.6em',
          justifyContent: align === 'right' ? 'flex-end' : align === 'center' ? 'center' : 'flex-start',
        }}
        data-layout="2"
      >
        {entries.map((e) => (
          <div key={e.key} data-info={e.key}>
            <div style={{ fontSize: '0.78em', fontWeight: 700, letterSpacing: '0.06em', textTransform: 'uppercase', color: MUTED }}>
              {e.label}
            </div>
            <div
              style={{
                fontWeight: e.strong ? 700 : undefined,
                whiteSpace: e.key === 'number' || e.key === 'payment' ? undefined : 'nowrap',
              }}
            >
              {e.value}
            </div>
          </div>
        ))}
      </div>
    );
  }
  const boxed = element.layout === 3;
  const cell: CSSProperties = boxed
    ? { padding: '0.3em 0.7em', border: `1px solid ${RULE}`, verticalAlign: 'top' }
    : { padding: '0.12em 0 0.12em 1.2em', verticalAlign: 'top' };
  return (
    <table data-layout={element.layout} style={{ borderCollapse: 'collapse', marginLeft: 'inherit', display: 'inline-table' }}>
      <tbody>
        {entries.map((e) => (
          <tr key={e.key} data-info={e.key}>
            <th
              scope="row"
              style={{
                ...cell,
                ...labelStyle,
                fontWeight: 400,
                textAlign: 'left',
                paddingLeft: boxed ? '0.7em' : 0,
                background: boxed ? '#F2F4F7' : undefined,
              }}
            >
              {e.label}
            </th>
            <td
              style={{
                ...cell,
                textAlign: 'right',
                fontWeight: e.strong ? 700 : undefined,
                whiteSpace: e.key === 'number' || e.key === 'payment' ? undefined : 'nowrap',
              }}
            >
              {e.value}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
