import { useEffect, useMemo } from 'react';
import { useParams, useSearch } from 'wouter';
import { css } from '../../../../styled-system/css';
import { defaultAppSettings, type AppSettings } from '../../../shared/schemas/settings';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { trpc } from '../../trpc';
import { Spinner } from '../../components/ui/spinner';
import { LogoMark } from '../../components/icons';
import { Button, buttonRecipe } from '../../components/ui/button';
import { DocumentPages } from '../../render/document-pages';
import { DocumentReflow } from '../../render/document-reflow';
import { useIsNarrowDocument } from '../../lib/use-media-query';
import { toRenderDocument } from '../../render/to-render-document';
import { useFitScale } from '../../render/use-fit-scale';
import { documentTitle, documentNumber } from '../../render/labels';
import { BalanceCard } from '../documents/balance-card';
import { QuoteAnswer } from './quote-answer';
import { TransferCard } from './transfer-card';
import { CardPayment } from './card-payment';

const styles = {
  page: css({ minH: '100dvh', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '5', p: { base: '3', md: '8' } }),
  bar: css({
    w: 'full',
    maxW: '820px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: '3',
    flexWrap: 'wrap',
  }),
  title: css({ fontWeight: '700', fontSize: 'md' }),
  stage: css({ w: 'full', maxW: '820px' }),
  // On a narrow phone the actions stay at the bottom of the screen whatever the scroll: download, pay, answer.
  actions: css({
    position: 'sticky',
    bottom: '0',
    zIndex: 'sticky',
    w: 'calc(100% + token(spacing.6))',
    mx: '-3',
    mb: '-3',
    mt: 'auto',
    px: '3',
    py: '2.5',
    bg: 'bg.surface',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    boxShadow: '0 -4px 12px rgba(16, 24, 40, 0.08)',
    display: 'flex',
    gap: '2',
    '& > *': { flex: '1 1 0', minW: '0', justifyContent: 'center', textAlign: 'center' },
  }),
  message: css({
    bg: 'bg.surface',
    borderRadius: 'card',
    borderWidth: '1px',
    borderColor: 'border.default',
    p: '8',
    textAlign: 'center',
    maxW: '480px',
    color: 'fg.muted',
  }),
};

/** Brings a card of the page into view and onto its first button, from the bar at the bottom. */
function reach(selector: string) {
  const card = document.querySelector<HTMLElement>(selector);
  if (!card) return;
  card.scrollIntoView({ behavior: 'smooth', block: 'center' });
  card.querySelector<HTMLElement>('button')?.focus({ preventScroll: true });
}

/** One shared document as issued: the answer, its settings, the document to render; the tab names it. */
function useSharedDocument(uuid: string, print: boolean) {
  const shared = trpc.share.get.useQuery(
    { uuid, print: print || undefined },
    // The printer asks again for every PDF (a quote may have changed since): nothing kept from an earlier one.
    print
      ? { meta: { silent: true }, retry: false, staleTime: 0, gcTime: 0 }
      : { meta: { silent: true }, retry: false, staleTime: Infinity },
  );
  const data = shared.data;
  const settings: AppSettings = useMemo(() => ({ ...defaultAppSettings(), ...(data?.settings ?? {}) }), [data]);
  // The issued document as it was issued: parties, lines, totals and mentions stored at issue, never recomputed.
  const doc = useMemo(
    () => (data ? toRenderDocument({ document: data.document }, { settings, transferQr: data.transfer?.qr }) : null),
    [data, settings],
  );

  // The tab names the document, as the file it is downloaded as does.
  useEffect(() => {
    if (doc) document.title = `${documentTitle(doc)} ${documentNumber(doc)} · ${doc.seller?.name ?? 'Facturier'}`;
  }, [doc]);
  return { shared, data, settings, doc };
}

/**
 * The server's own visit to print a PDF (`?print=<key>`): the bare pages at scale 1, no button, no view recorded. The
 * printer keeps its page open and moves it from one document to the next (pdf-renderer.ts), each with a new key: this
 * is mounted afresh for each, shows only an answer fetched for it, and its pages say ready under that key.
 */
function PrintedDocument({ uuid, printKey }: { uuid: string; printKey: string }) {
  const { shared, data, settings, doc } = useSharedDocument(uuid, true);
  if (!shared.isFetchedAfterMount || shared.isFetching || !doc || !data) return null;
  return <DocumentPages doc={doc} template={data.template} settings={settings} renderKey={printKey} />;
}

/**
 * The public page of one issued document (share link): that document only, with a download button and no app
 * chrome; with `?print=…`, the pages the server prints to PDF.
 */
export function SharePage() {
  const { uuid } = useParams<{ uuid: string }>();
  const printKey = new URLSearchParams(useSearch()).get('print');
  return printKey === null ? (
    <SharedDocument uuid={uuid} />
  ) : (
    <PrintedDocument key={`${uuid} ${printKey}`} uuid={uuid} printKey={printKey} />
  );
}

function SharedDocument({ uuid }: { uuid: string }) {
  const { shared, data, settings, doc } = useSharedDocument(uuid, false);
  const [stage, fitScale] = useFitScale(1);
  const narrow = useIsNarrowDocument();
  const isEstimate = data?.document.type === 'estimate';
  // The same query as the answer card's: the bar offers to answer only while the estimate waits for one.
  const quote = trpc.share.quote.useQuery({ uuid }, { enabled: isEstimate, meta: { silent: true }, retry: false });
  const canPay =
    data !== undefined && DOCUMENT_TYPE_TABLE[data.document.type].receivesPayments && data.card_payment && data.document.amount_due > 0;
  const canAnswer = isEstimate && quote.data?.state === 'pending' && !quote.data.expired;
  const download = (
    <a
      className={buttonRecipe({ variant: narrow && (canPay || canAnswer) ? 'outline' : undefined })}
      href={`/documents/download/${uuid}`}
      download
    >
      Télécharger le PDF
    </a>
  );

  return (
    <div className={styles.page}>
      {shared.isPending ? (
        <div role="status" className={css({ py: '16' })}>
          <Spinner label="Chargement du document" />
        </div>
      ) : !doc || !data ? (
        <div className={styles.message} role="alert">
          <LogoMark size={32} />
          <p className={css({ mt: '3' })}>
            Ce document est introuvable : le lien est peut-être incomplet, ou le document n’est plus partagé.
          </p>
        </div>
      ) : (
        <>
          <header className={styles.bar} data-print-hidden>
            <p className={styles.title}>
              {documentTitle(doc)} {documentNumber(doc)}
            </p>
            {!narrow && download}
          </header>
          <BalanceCard balance={data.document} settings={settings} />
          {DOCUMENT_TYPE_TABLE[data.document.type].receivesPayments && (
            <CardPayment uuid={uuid} available={data.card_payment} balance={data.document} settings={settings} />
          )}
          {data.transfer && <TransferCard transfer={data.transfer} settings={settings} />}
          {isEstimate && <QuoteAnswer uuid={uuid} seller={data.document.organization?.name ?? 'votre fournisseur'} />}
          <div ref={stage} className={styles.stage}>
            {narrow ? (
              <DocumentReflow doc={doc} template={data.template} settings={settings} pdfHref={`/documents/download/${uuid}`} />
            ) : (
              <DocumentPages doc={doc} template={data.template} settings={settings} scale={fitScale} />
            )}
          </div>
          {narrow && (
            <nav className={styles.actions} aria-label="Actions du document" data-print-hidden>
              {download}
              {canPay && <Button onClick={() => reach('[data-testid="card-payment"]')}>Payer</Button>}
              {canAnswer && <Button onClick={() => reach('section[aria-label="Réponse au devis"]')}>Accepter ou refuser</Button>}
            </nav>
          )}
        </>
      )}
    </div>
  );
}
