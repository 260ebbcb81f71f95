import type { CSSProperties } from 'react';
import { MUTED, RULE, type RenderContext } from './render-context';
import { mergeCss, styleToCss } from './style-css';
import { totalRows } from './totals-rows';

const pre: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };
const heading: CSSProperties = { fontSize: '0.78em', fontWeight: 700, letterSpacing: '0.06em', textTransform: 'uppercase', color: MUTED, marginBottom: '0.25em' };

/** The totals (template `table.totals` flags) on the right, under the last line of the table. */
function Totals({ ctx }: { ctx: RenderContext }) {
  const rows = totalRows(ctx.doc, ctx.template.table.totals, ctx.f);
  if (rows.length === 0) return null;
  const s = ctx.template.table.style;
  return (
    <table aria-label="Totaux du document" data-totals="" style={mergeCss({ marginLeft: 'auto', width: '48%', minWidth: 260, borderCollapse: 'collapse' }, styleToCss(s.tfoot))}>
      <tbody>
        {rows.map((row) => {
          const strong: CSSProperties = row.strong ? mergeCss({ fontWeight: 700, fontSize: '1.08em', borderTop: '1.5px solid #1D2939', background: '#F2F4F7' }, styleToCss(s.total)) : {};
          return (
            <tr key={row.key} data-total={row.key} style={strong}>
              <th scope="row" style={{ textAlign: 'left', fontWeight: 'inherit', padding: '0.35em 0.6em', borderBottom: row.strong ? undefined : `1px solid ${RULE}` }}>
                {row.label}
              </th>
              <td style={{ textAlign: 'right', padding: '0.35em 0.6em', fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', borderBottom: row.strong ? undefined : `1px solid ${RULE}` }}>{row.value}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * What closes the document after its totals: deposit requests, payment conditions, terms, notes, the additional
 * information the template does not place elsewhere, and the legal mentions with the seller's identity
 * (CGI art. 242 nonies A, C. com. L441-9) unless the footer already prints it.
 */
function Closing({ ctx }: { ctx: RenderContext }) {
  const { doc, f, placed } = ctx;
  const infoElsewhere = placed.has('additional_info');
  const pairs = infoElsewhere ? [] : [...doc.additional_info, ...(doc.seller?.additional_info ?? [])];
  const identity = !placed.has('identifications') && doc.seller ? doc.seller.identity : [];
  const blocks = [
    doc.deposit_request.length > 0 && (
      <div key="deposits">
        <div style={heading}>Acompte demandé</div>
        {doc.deposit_request.map((d, i) => (
          <div key={i}>
            {d.description || 'Acompte'} : <strong>{f.money(d.amount)}</strong>
          </div>
        ))}
      </div>
    ),
    doc.condition.trim() && (
      <div key="condition">
        <span style={{ color: MUTED }}>{doc.type === 'invoice' || doc.type === 'credit' ? 'Conditions de paiement' : 'Conditions'} : </span>
        {doc.condition.trim()}
      </div>
    ),
    pairs.length > 0 && (
      <div key="info" style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0.1em 1em' }}>
        {pairs.map((kv, i) => (
          <div key={i} style={{ display: 'contents' }}>
            <span style={{ color: MUTED }}>{kv.key}</span>
            <span>{kv.value}</span>
          </div>
        ))}
      </div>
    ),
    doc.terms.trim() && (
      <div key="terms" style={pre}>
        {doc.terms}
      </div>
    ),
    doc.note.trim() && (
      <div key="note" style={pre}>
        {doc.note}
      </div>
    ),
    (doc.legal_mentions.length > 0 || identity.length > 0) && (
      <div key="mentions" data-legal-mentions="" style={{ fontSize: '0.82em', color: MUTED, borderTop: `1px solid ${RULE}`, paddingTop: '0.5em' }}>
        {doc.legal_mentions.map((m) => (
          <div key={m}>{m}</div>
        ))}
        {identity.length > 0 && <div>{identity.join(' · ')}</div>}
      </div>
    ),
  ].filter(Boolean);
  if (blocks.length === 0) return null;
  return <div style={{ display: 'flex', flexDirection: 'column', gap: '0.7em', marginTop: '1.4em' }}>{blocks}</div>;
}

/** Totals and closing texts: one block, kept with the last line of the table (shared/pagination.ts). */
export function TotalsBlock({ ctx }: { ctx: RenderContext }) {
  return (
    <div data-block="totals" style={{ paddingTop: '0.9em' }}>
      <Totals ctx={ctx} />
      <Closing ctx={ctx} />
    </div>
  );
}
