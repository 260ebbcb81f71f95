import { useMemo } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../../styled-system/css';
import type { DocumentType } from '../../../shared/schemas/document';
import { computeTotals, type DocumentTotals } from '../../../shared/totals';
import { currencyPrecision } from '../../../shared/currencies';
import { trpc } from '../../trpc';
import { editor } from '../../stores/document-editor';
import { Spinner } from '../../components/ui/spinner';
import { Button } from '../../components/ui/button';
import { DocumentTabs } from './document-tabs';
import { DocumentSheet, type SheetDocument } from './document-sheet';
import { DocumentViewActions } from './document-view-actions';
import { StatusChip } from './status-chip';
import { TYPE_LABELS, documentHref } from './document-meta';
import { useEditorData } from './editor/use-editor-data';
import { parseAmount, toDocumentInput, totalsInputOf, type FormState } from './editor/form-state';

type Record = NonNullable<ReturnType<typeof useEditorData>['doc']>;

/** The totals the server answered for a saved document, in the shared core's shape. */
const totalsOfRecord = (doc: Record): DocumentTotals => ({
  lines: doc.items.map((i) => ({ price: i.price, net_price: i.net_price, subtotal: i.subtotal, discount: i.discount, gross_total: i.gross_total, tax: i.tax, total: i.total })),
  subtotal: doc.subtotal,
  discount: doc.discount,
  taxes: doc.taxes,
  tax: doc.tax,
  shipping: doc.shipping,
  total: doc.total,
  deposits: doc.deposits,
  paid: doc.paid,
  amount_due: doc.amount_due + doc.credited,
});

/** SPEC §2 Aperçu: {base}/{id}/view shows the saved document; {base}/new/view the form being created. */
export function DocumentViewPage({ type }: { type: DocumentType }) {
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : undefined;
  const [, navigate] = useLocation();
  const data = useEditorData(type, id);
  const snap = useSnapshot(editor);
  const profile = trpc.organization.get.useQuery(undefined, { staleTime: 60_000 });
  const form = snap.form as FormState | null;
  const customer = trpc.customers.get.useQuery({ id: form?.customer_id ?? 0 }, { enabled: !id && Boolean(form?.customer_id) });

  const preview = useMemo(() => {
    if (id || !form) return null;
    const input = toDocumentInput(form) as { items: { item: string; description: string; quantity: number; unit: string; unit_price: number; taxes: { title: string; rate: number }[] }[] };
    const totals = computeTotals({ ...totalsInputOf(form), precision: currencyPrecision(form.currency) });
    const num = (v: unknown) => (typeof v === 'number' ? v : 0);
    const sheet: SheetDocument = {
      ...form,
      number: null,
      maturity: form.maturity || null,
      deposit_request: form.deposit_request.map((d) => ({ description: d.description, amount: parseAmount(d.amount) || 0 })),
      items: input.items.map((i, k) => ({ ...i, quantity: num(i.quantity), unit_price: num(i.unit_price), discount: totals.lines[k]?.discount ?? 0 })),
      seller: profile.data ? { name: profile.data.name, address: profile.data.address, email: profile.data.email, phone: profile.data.phone } : null,
      customer: customer.data ?? null,
      legal_mentions: [],
    };
    return { sheet, totals };
  }, [id, form, profile.data, customer.data]);

  if (data.docError) return <p role="alert">Ce document est introuvable.</p>;
  const loading = !data.settings || (id ? !data.doc : !preview);
  if (loading) {
    return (
      <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Chargement de l’aperçu" />
      </div>
    );
  }

  const doc = data.doc;
  const sheet: SheetDocument = doc
    ? {
        ...doc,
        maturity: doc.maturity ?? null,
        seller: doc.organization ?? (profile.data ? { name: profile.data.name, address: profile.data.address, email: profile.data.email, phone: profile.data.phone } : null),
        deposit_request: doc.deposit_request,
      }
    : preview!.sheet;
  const totals = doc ? totalsOfRecord(doc) : preview!.totals;

  return (
    <div>
      <DocumentTabs
        type={type}
        id={id}
        current="view"
        actions={
          doc ? (
            <DocumentViewActions doc={doc} />
          ) : (
            <Button variant="outline" onClick={() => navigate(`${documentHref({ id: 0, type }, 'edit').replace('/0/edit', '/new/add')}`)}>
              Revenir au formulaire
            </Button>
          )
        }
      />
      {doc && (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap', mb: '3', fontSize: 'sm' })}>
          <StatusChip status={doc.status} />
          {doc.sent_at && <StatusChip status="sent" />}
          {doc.origin && (
            <span>
              Issu de : <Link className={css({ color: 'accent.fg', fontWeight: '600' })} href={documentHref(doc.origin, 'view')}>{`${TYPE_LABELS[doc.origin.type].one} ${doc.origin.number ?? 'brouillon'}`}</Link>
            </span>
          )}
          {doc.linked.length > 0 && (
            <span>
              Documents liés :{' '}
              {doc.linked.map((l, i) => (
                <span key={l.id}>
                  {i > 0 && ', '}
                  <Link className={css({ color: 'accent.fg', fontWeight: '600' })} href={documentHref(l, l.status === 'draft' ? 'edit' : 'view')}>
                    {`${l.kind === 'deposit' ? 'Acompte' : TYPE_LABELS[l.type].one} ${l.number ?? '(brouillon)'}`}
                  </Link>
                </span>
              ))}
            </span>
          )}
        </div>
      )}
      {!doc && <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>Aperçu du document en cours de création : il n’est pas encore enregistré.</p>}
      <DocumentSheet doc={sheet} totals={totals} settings={data.settings!} />
    </div>
  );
}
