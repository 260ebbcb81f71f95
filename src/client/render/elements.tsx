import type { CSSProperties, ReactNode } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { hasDistinctShipping, taxIdLabel } from '../../shared/legal-mentions';
import type { TemplateElement } from '../../shared/schemas/template';
import { DocumentIcon } from './document-icons';
import { DocumentInfo } from './document-info';
import { documentNumber, documentTitle } from './labels';
import { MUTED, type PagePosition, type RenderContext } from './render-context';
import { styleToCss } from './style-css';
import type { RenderCustomer } from './types';
import { NUMBER_LABELS } from '../../shared/status';
import { defined } from '../../shared/defined';
import { logoSource } from '../../shared/template-images';

/** A logo fits 350 × 150 px at 100 %; without one, a placeholder at most 100 px wide. */
export const LOGO_MAX = { width: 350, height: 150 };
export const LOGO_PLACEHOLDER_MAX_WIDTH = 100;

const pre: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };
const label: CSSProperties = {
  fontSize: '0.78em',
  fontWeight: 700,
  letterSpacing: '0.06em',
  textTransform: 'uppercase',
  color: MUTED,
  marginBottom: '0.35em',
};
const small: CSSProperties = { fontSize: '0.85em', color: MUTED };

const shippingOf = (c: RenderCustomer | null) => (c && hasDistinctShipping(c) ? c.shipping : null);

/** An element with nothing to show (an empty note, no distinct delivery address…): its row may be left out. */
export function isEmptyElement(element: TemplateElement, ctx: RenderContext): boolean {
  const { doc } = ctx;
  switch (element.type) {
    case 'header_note':
      return !doc.header.trim();
    case 'footer_note':
      return !doc.footer.trim();
    case 'text':
      return !element.content.trim();
    case 'shipping':
      return !shippingOf(doc.customer) && !doc.shipping_details.trim();
    case 'identifications':
      return !doc.seller || (doc.seller.identity.length === 0 && doc.seller.identifications.length === 0);
    case 'additional_info':
      return doc.additional_info.length === 0 && (doc.seller?.additional_info.length ?? 0) === 0;
    case 'organization':
      return !doc.seller;
    default:
      return false;
  }
}

function Lines({ lines }: { lines: (string | null | undefined | false)[] }) {
  return (
    <>
      {lines.filter(Boolean).map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: printed address lines, no state; two lines may read the same
        <div key={i}>{line}</div>
      ))}
    </>
  );
}

function Monogram({ name, size }: { name: string; size: number }) {
  const initials =
    name
      .split(/[\s'’-]+/)
      .filter((w) => /^\p{L}/u.test(w))
      .slice(0, 2)
      .map((w) => defined(w[0], 'w[0]').toUpperCase())
      .join('') || '•';
  const side = Math.max(20, Math.round((LOGO_PLACEHOLDER_MAX_WIDTH * 0.48 * size) / 100));
  return (
    <div
      data-logo-placeholder=""
      role="img"
      aria-label="Logo"
      style={{
        width: side,
        height: side,
        maxWidth: LOGO_PLACEHOLDER_MAX_WIDTH,
        borderRadius: side * 0.22,
        background: '#1D2939',
        color: 'white',
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        fontWeight: 700,
        fontSize: side * 0.38,
        letterSpacing: '0.02em',
      }}
    >
      {initials}
    </div>
  );
}

function Logo({ url, size, name }: { url: string; size: number; name: string }) {
  if (!url) return <Monogram name={name} size={size} />;
  const scale = size / 100;
  return (
    <img
      src={url}
      alt={name ? `Logo ${name}` : 'Logo'}
      style={{
        display: 'inline-block',
        maxWidth: LOGO_MAX.width * scale,
        maxHeight: LOGO_MAX.height * scale,
        width: 'auto',
        height: 'auto',
        objectFit: 'contain',
      }}
    />
  );
}

function Customer({ ctx }: { ctx: RenderContext }) {
  const { doc, f } = ctx;
  const c = doc.customer;
  if (!c) return <div style={{ color: MUTED, fontStyle: 'italic' }}>Aucun client choisi</div>;
  const shipping = !ctx.placed.has('shipping') ? shippingOf(c) : null;
  const billing = (
    <div>
      <div style={label}>{DOCUMENT_TYPE_TABLE[doc.type].recipientLabel}</div>
      <div style={{ fontWeight: 700, fontSize: '1.1em' }}>{c.name}</div>
      <Lines
        lines={[
          c.legal_name && c.legal_name !== c.name && c.legal_name,
          ...f.address(c.address),
          c.business_id && `${c.business_id.replace(/\D/g, '').length === 14 ? 'SIRET' : 'SIREN'} ${c.business_id}`,
          c.vat_number && `${taxIdLabel(c)} ${c.vat_number}`,
        ]}
      />
      {/* C. com. L441-9: the buyer's purchase-order number, when there is one. */}
      {doc.purchase_order && (
        <div data-purchase-order="" style={{ marginTop: '0.35em' }}>
          <span style={{ color: MUTED }}>Votre commande n° </span>
          {/* Kept whole on its line when it fits: a number cut in two reads as two. */}
          <span style={{ display: 'inline-block', overflowWrap: 'anywhere' }}>{doc.purchase_order}</span>
        </div>
      )}
    </div>
  );
  if (!shipping) return billing;
  // The delivery address beside the billing one, when it differs (2026 e-invoicing mention).
  return (
    <div style={{ display: 'flex', gap: '1.2em', textAlign: 'left' }}>
      <div style={{ flex: '1 1 0', minWidth: 0 }}>{billing}</div>
      <div style={{ flex: '1 1 0', minWidth: 0 }}>
        <div style={label}>Livraison</div>
        <Lines lines={f.address(shipping)} />
      </div>
    </div>
  );
}

/** One template element drawn for a given page. */
export function ElementView({
  element,
  ctx,
  position,
  align = 'left',
}: {
  element: TemplateElement;
  ctx: RenderContext;
  position: PagePosition;
  align?: 'left' | 'center' | 'right';
}) {
  const { doc, f } = ctx;
  const style = styleToCss(element.style);
  let body: ReactNode = null;
  switch (element.type) {
    case 'document_name':
      body = <div style={{ fontSize: '2.1em', fontWeight: 700, lineHeight: 1.15, letterSpacing: '-0.01em' }}>{documentTitle(doc)}</div>;
      break;
    case 'logo':
      body = <Logo url={logoSource(element.url, doc.seller?.logo_url ?? '')} size={element.size} name={doc.seller?.name ?? ''} />;
      break;
    case 'icon':
      body = <DocumentIcon name={element.name} size={element.size} color={element.color} />;
      break;
    case 'document_info':
      body = <DocumentInfo element={element} ctx={ctx} align={align} />;
      break;
    case 'organization': {
      const s = doc.seller;
      body = s && (
        <div>
          <div style={{ fontWeight: 700, fontSize: '1.15em' }}>{[s.name, s.legal_form].filter(Boolean).join(' ')}</div>
          <Lines
            lines={[
              ...f.address(s.address),
              [s.phone && `Tél. ${s.phone}`, s.mobile && `Mob. ${s.mobile}`].filter(Boolean).join(' · '),
              s.email,
              s.web,
            ]}
          />
        </div>
      );
      break;
    }
    case 'customer':
      body = <Customer ctx={ctx} />;
      break;
    case 'shipping': {
      const shipping = shippingOf(doc.customer);
      body = (shipping || doc.shipping_details.trim()) && (
        <div>
          <div style={label}>Adresse de livraison</div>
          {shipping && <Lines lines={[doc.customer?.name, ...f.address(shipping)]} />}
          {doc.shipping_details.trim() && <div style={{ ...pre, ...small }}>{doc.shipping_details}</div>}
        </div>
      );
      break;
    }
    case 'identifications': {
      const s = doc.seller;
      body = s && (
        <div style={{ ...small, fontSize: '0.8em' }}>
          {[...s.identity, ...s.identifications.map((kv) => `${kv.key} ${kv.value}`)].join(' · ')}
        </div>
      );
      break;
    }
    case 'additional_info': {
      const pairs = [...doc.additional_info, ...(doc.seller?.additional_info ?? [])];
      body = pairs.length > 0 && (
        <div>
          {pairs.map((kv, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: printed pairs without ids or state; their order is the content
            <div key={i}>
              <span style={{ color: MUTED }}>{kv.key} : </span>
              {kv.value}
            </div>
          ))}
        </div>
      );
      break;
    }
    case 'text':
      body = element.content.trim() && <div style={pre}>{element.content}</div>;
      break;
    case 'document_number':
      body = (
        <div style={{ fontWeight: 700 }}>
          {NUMBER_LABELS[doc.type]} {documentNumber(doc)}
        </div>
      );
      break;
    case 'page_number':
      body = (
        <div data-page-number="" style={small}>
          Page {position.page} / {position.pages}
        </div>
      );
      break;
    case 'separator': {
      const margin = element.align === 'center' ? '0 auto' : element.align === 'right' ? '0 0 0 auto' : '0';
      const line = element.border_style === 'default' ? 'solid' : element.border_style;
      body = (
        <hr
          style={{
            width: `${element.el_width}%`,
            margin,
            border: 'none',
            borderTop: `${element.width}px ${line} ${element.color || '#D0D5DD'}`,
            height: 0,
          }}
        />
      );
      break;
    }
    case 'header_note':
      body = doc.header.trim() && <div style={pre}>{doc.header}</div>;
      break;
    case 'footer_note':
      body = doc.footer.trim() && <div style={{ ...pre, ...small }}>{doc.footer}</div>;
      break;
  }
  if (!body) return null;
  return (
    <div data-element={element.type} style={style}>
      {body}
    </div>
  );
}
