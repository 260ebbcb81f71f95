import { useMemo, useRef } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../../styled-system/css';
import type { DocumentType } from '../../../shared/schemas/document';
import { trpc } from '../../trpc';
import { editor } from '../../stores/document-editor';
import { Spinner } from '../../components/ui/spinner';
import { Button } from '../../components/ui/button';
import { DocumentPages } from '../../render/document-pages';
import { toRenderDocument } from '../../render/to-render-document';
import { useFitScale } from '../../render/use-fit-scale';
import { DocumentReflow } from '../../render/document-reflow';
import { useIsNarrowDocument } from '../../lib/use-media-query';
import { DocumentTabs } from './document-tabs';
import { DocumentViewActions } from './document-view-actions';
import { IssueProblems } from './issue';
import { StatusChip } from './status-chip';
import { BalanceCard } from './balance-card';
import { CreditSettlementCard } from './credit-settlement-card';
import { LifecycleCard } from './lifecycle-card';
import { RemindersCard } from './reminders-card';
import { QuoteResponseCard } from './quote-response-card';
import { TYPE_LABELS, documentHref } from './document-meta';
import { useEditorData } from './editor/use-editor-data';
import type { DocumentDraft } from './editor/form-state';
import { defined } from '../../../shared/defined';
import { hasEinvoice } from '../../../shared/document-status';

/** Aperçu: {base}/{id}/view shows the saved document; {base}/new/view the form being created. Both through the one renderer. */
export function DocumentViewPage({ type }: { type: DocumentType }) {
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : undefined;
  const [, navigate] = useLocation();
  const data = useEditorData(type, id);
  const snap = useSnapshot(editor);
  const profile = trpc.organization.get.useQuery(undefined, { staleTime: 60_000 });
  const template = trpc.settings.get.useQuery({ key: 'document' }, { staleTime: 60_000 });
  const form = snap.form as DocumentDraft | null;
  const customer = trpc.customers.get.useQuery({ id: form?.customer_id ?? 0 }, { enabled: !id && Boolean(form?.customer_id) });
  const [stage, scale] = useFitScale(1);
  const narrow = useIsNarrowDocument();
  // 'Enregistrer & imprimer' lands here with ?print=1: the browser's print of these pages once they are laid out.
  const printAsked = new URLSearchParams(useSearch()).has('print');
  const printed = useRef(false);
  const onPaginated = () => {
    if (!printAsked || printed.current) return;
    printed.current = true;
    navigate(documentHref({ id: id ?? 0, type }, 'view'), { replace: true });
    setTimeout(() => window.print(), 0);
  };

  const rendered = useMemo(() => {
    if (!data.settings || profile.isPending) return null;
    const context = { profile: profile.data ?? null, settings: data.settings, rates: data.currencies };
    if (id) return data.doc ? toRenderDocument({ document: data.doc }, context) : null;
    return form ? toRenderDocument({ form }, { ...context, customer: customer.data ?? null }) : null;
  }, [id, data.doc, data.settings, data.currencies, form, profile.isPending, profile.data, customer.data]);
  // An issued document keeps the template in force at its issue; a draft (or one issued before that) the current one.
  const current = template.data && 'data' in template.data ? template.data.data : undefined;
  const templateData = (id ? data.doc?.template : null) ?? current;

  if (data.docError) return <p role="alert">Ce document est introuvable.</p>;
  const loading = !rendered || !templateData;
  if (loading) {
    return (
      <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Chargement de l’aperçu" />
      </div>
    );
  }

  const doc = data.doc;

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
          <StatusChip status={doc.status} type={doc.type} />
          {doc.sent_at && <StatusChip status="sent" />}
          {doc.origin && (
            <span>
              Issu de :{' '}
              <Link
                className={css({ color: 'accent.fg', fontWeight: '600' })}
                href={documentHref(doc.origin, 'view')}
              >{`${TYPE_LABELS[doc.origin.type].one} ${doc.origin.number ?? 'brouillon'}`}</Link>
            </span>
          )}
          {doc.linked.length > 0 && (
            <span>
              Documents liés :{' '}
              {doc.linked.map((l, i) => (
                <span key={l.id}>
                  {i > 0 && ', '}
                  <Link
                    className={css({ color: 'accent.fg', fontWeight: '600' })}
                    href={documentHref(l, l.status === 'draft' ? 'edit' : 'view')}
                  >
                    {`${l.kind === 'deposit' ? 'Acompte' : TYPE_LABELS[l.type].one} ${l.number ?? '(brouillon)'}`}
                  </Link>
                </span>
              ))}
            </span>
          )}
        </div>
      )}
      {doc && <IssueProblems documentId={doc.id} customerId={doc.customer_id ?? null} />}
      {doc && <QuoteResponseCard doc={doc} />}
      {doc && <BalanceCard balance={doc} settings={defined(data.settings, 'data.settings')} />}
      {doc?.type === 'credit' && doc.settlement && (
        <CreditSettlementCard
          documentId={doc.id}
          currency={doc.currency}
          settlement={doc.settlement}
          settings={defined(data.settings, 'data.settings')}
        />
      )}
      {doc && doc.type === 'invoice' && doc.stored_status !== 'draft' && <RemindersCard documentId={doc.id} />}
      {doc && hasEinvoice(doc.type) && doc.stored_status !== 'draft' && <LifecycleCard documentId={doc.id} type={doc.type} />}
      {!doc && (
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '3' })}>
          Aperçu du document en cours de création : il n’est pas encore enregistré.
        </p>
      )}
      {narrow && !printAsked ? (
        <div className={css({ pb: '6' })}>
          <DocumentReflow
            doc={defined(rendered, 'rendered')}
            template={defined(templateData, 'templateData')}
            settings={defined(data.settings, 'data.settings')}
            pdfHref={doc && doc.stored_status !== 'draft' ? `/documents/download/${doc.uuid}` : undefined}
          />
        </div>
      ) : (
        <div ref={stage} className={css({ w: 'full', overflowX: 'auto', pb: '6' })}>
          <DocumentPages
            doc={defined(rendered, 'rendered')}
            template={defined(templateData, 'templateData')}
            settings={defined(data.settings, 'data.settings')}
            scale={scale}
            onPaginated={onPaginated}
          />
        </div>
      )}
    </div>
  );
}
