import type { CSSProperties, ReactNode } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { MUTED, RULE, type RenderContext } from './render-context';
import { mergeCss, styleToCss } from './style-css';
import { totalRows, type TotalRow } from './totals-rows';
import { TransferBlock } from './transfer-block';
import { withFrenchSpaces } from '../../shared/typography';

const pre: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };
const heading: CSSProperties = {
  fontSize: '0.78em',
  fontWeight: 700,
  letterSpacing: '0.06em',
  textTransform: 'uppercase',
  color: MUTED,
  marginBottom: '0.2em',
};
const cell: CSSProperties = { padding: '0.2em 0.6em', fontVariantNumeric: 'tabular-nums' };

/** The totals (template `table.totals` flags), under the last line of the table. */
function Totals({ ctx, rows }: { ctx: RenderContext; rows: TotalRow[] }) {
  const s = ctx.template.table.style;
  return (
    <table
      aria-label="Totaux du document"
      data-totals=""
      style={mergeCss({ width: '100%', borderCollapse: 'collapse' }, styleToCss(s.tfoot))}
    >
      <tbody>
        {rows.map((row) => {
          const rule = row.strong ? undefined : `1px solid ${RULE}`;
          const strong: CSSProperties = row.strong
            ? mergeCss({ fontWeight: 700, background: '#F2F4F7', borderTop: '1.5px solid #1D2939' }, styleToCss(s.total))
            : {};
          return (
            <tr key={row.key} data-total={row.key} style={strong}>
              <th scope="row" style={{ ...cell, textAlign: 'left', fontWeight: 'inherit', borderBottom: rule }}>
                {row.label}
              </th>
              <td style={{ ...cell, textAlign: 'right', whiteSpace: 'nowrap', borderBottom: rule }}>{row.value}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Beside the totals: deposits asked for, payment conditions, the additional information the template does not
 * place elsewhere (order reference, bank details), how to pay by transfer, terms and notes.
 */
function Conditions({ ctx }: { ctx: RenderContext }) {
  const { doc, f, placed } = ctx;
  const pairs = placed.has('additional_info') ? [] : [...doc.additional_info, ...(doc.seller?.additional_info ?? [])];
  const blocks: ReactNode[] = [];
  if (doc.deposit_request.length > 0) {
    blocks.push(
      <div key="deposits">
        <div style={heading}>Acompte demandé</div>
        {doc.deposit_request.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: printed requests without ids or state; their order is the content
          <div key={i}>
            {d.description || 'Acompte'} : <strong>{f.money(d.amount)}</strong>
          </div>
        ))}
      </div>,
    );
  }
  if (doc.condition.trim()) {
    blocks.push(
      <div key="condition">
        <div style={heading}>{DOCUMENT_TYPE_TABLE[doc.type].conditionsLabel}</div>
        <div style={pre}>{doc.condition.trim()}</div>
      </div>,
    );
  }
  if (pairs.length > 0) {
    blocks.push(
      <div key="info" style={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '0 1em' }}>
        {pairs.map((kv, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: printed pairs without ids or state; their order is the content
          <div key={i} style={{ display: 'contents' }}>
            <span style={{ color: MUTED }}>{kv.key}</span>
            <span style={{ overflowWrap: 'anywhere' }}>{kv.value}</span>
          </div>
        ))}
      </div>,
    );
  }
  if (doc.transfer) blocks.push(<TransferBlock key="transfer" transfer={doc.transfer} seller={doc.seller?.name ?? null} />);
  if (doc.terms.trim())
    blocks.push(
      <div key="terms" style={pre}>
        {doc.terms}
      </div>,
    );
  if (doc.note.trim())
    blocks.push(
      <div key="note" style={pre}>
        {doc.note}
      </div>,
    );
  if (blocks.length === 0) return null;
  return <div style={{ display: 'flex', flexDirection: 'column', gap: '0.6em' }}>{blocks}</div>;
}

/** The mentions are kept as issued (and sent so in the e-invoice): their signs get their no-break spaces when drawn. */
const keepUnits = withFrenchSpaces;

/**
 * The legal mentions (CGI art. 242 nonies A, C. com. L441-9/L441-10/D441-5), in small print, and the seller's
 * identity when the template's footer does not print it already.
 */
function Mentions({ ctx }: { ctx: RenderContext }) {
  const { doc, placed } = ctx;
  const identity = !placed.has('identifications') && doc.seller ? doc.seller.identity : [];
  if (doc.legal_mentions.length === 0 && identity.length === 0) return null;
  return (
    <div data-legal-mentions="" style={{ fontSize: '0.78em', color: MUTED, marginTop: '0.9em', lineHeight: 1.38 }}>
      {doc.legal_mentions.length > 0 && (
        <p style={{ margin: 0 }}>{doc.legal_mentions.map((m) => keepUnits(/[.!?]$/.test(m) ? m : `${m}.`)).join(' ')}</p>
      )}
      {identity.length > 0 && <p style={{ margin: 0 }}>{identity.join(' · ')}</p>}
    </div>
  );
}

/** Totals, conditions and mentions: one block, kept with the last line of the table (shared/pagination.ts). */
export function TotalsBlock({ ctx }: { ctx: RenderContext }) {
  const rows = totalRows(ctx.doc, ctx.template.table.totals, ctx.f);
  return (
    <div data-block="totals" style={{ paddingTop: '0.7em' }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '1.5em' }}>
        <div style={{ flex: '1 1 0', minWidth: 0 }}>
          <Conditions ctx={ctx} />
        </div>
        {rows.length > 0 && (
          <div style={{ flex: '0 0 46%' }}>
            <Totals ctx={ctx} rows={rows} />
          </div>
        )}
      </div>
      <Mentions ctx={ctx} />
    </div>
  );
}
