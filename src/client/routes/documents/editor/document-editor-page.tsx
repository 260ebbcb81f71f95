import { useEffect, useRef } from 'react';
import { useLocation, useParams } from 'wouter';
import { useSnapshot } from 'valtio';
import { css } from '../../../../../styled-system/css';
import { DOCUMENT_MODIFIED, documentInputSchema, type DocumentType } from '../../../../shared/schemas/document';
import type { DocumentAnswer } from '../../../../shared/schemas/document-model';
import { isEditable, isLegalRecord } from '../../../../shared/document-status';
import { maturityLabel, showsTotal } from '../../../../shared/status';
import { errorInfo, fieldErrorsOf, reportError, trpc } from '../../../trpc';
import { editor, isDirty, loadEditor, markSaved, resetEditor } from '../../../stores/document-editor';
import { showMessage } from '../../../stores/snackbar';
import { confirm } from '../../../stores/confirm';
import { useUnsavedGuard } from '../../../lib/use-unsaved-guard';
import { useIsPhone } from '../../../lib/use-media-query';
import { Button } from '../../../components/ui/button';
import { useActionGuard } from '../../../lib/use-action-guard';
import { ActionMenu } from '../../../components/ui/action-menu';
import { Spinner } from '../../../components/ui/spinner';
import { CloseIcon } from '../../../components/icons';
import { baseOf } from '../document-meta';
import { DocumentTabs } from '../document-tabs';
import { useIssueDocument } from '../issue';
import { draftOf, errorsByPath, useTypingSave, type DocumentDraft } from './form-state';
import { useEditorData } from './use-editor-data';
import { HeaderFields } from './header-fields';
import { LinePanels } from './line-panels';
import { ExtrasSection } from './extras-section';
import { DeliveryFields } from './delivery-fields';
import { TotalsCard } from './totals-card';
import { ExchangeRateField, type RateLock } from './exchange-rate-field';
import { documentRate } from '../../../../shared/exchange';
import { editorLayout } from './editor-layout';
import { useCan } from '../../../lib/use-can';
import { ReadOnly } from '../../../components/role-gate';

type DocumentWrite = { messages: string; data: DocumentAnswer };

const styles = {
  ...editorLayout,
  aside: css({ position: { xl: 'sticky' }, top: '4', display: 'flex', flexDirection: 'column', gap: '3' }),
  notice: css({ bg: 'warningSubtle', color: 'warning', borderRadius: 'lg', p: '3', fontSize: 'sm', fontWeight: '600' }),
  // Phones: save and issue stay under the thumb, whatever the scroll, above the page's own bottom.
  stickyBar: css({
    position: 'sticky',
    bottom: '0',
    zIndex: 'sticky',
    display: 'flex',
    gap: '2',
    justifyContent: 'flex-end',
    alignItems: 'center',
    mt: '4',
    mx: '-4',
    px: '4',
    py: '2.5',
    bg: 'bg.surface',
    borderTopWidth: '1px',
    borderColor: 'border.default',
    boxShadow: '0 -4px 12px rgba(0, 0, 0, 0.08)',
    '& > button:first-child': { flex: '1' },
  }),
};

/** Document editor: {base}/new/add and {base}/{id}/edit. */
export function DocumentEditorPage({ type }: { type: DocumentType }) {
  const params = useParams<{ id?: string }>();
  const id = params.id ? Number(params.id) : undefined;
  const canWrite = useCan(id ? 'documents.update' : 'documents.create');
  const [, navigate] = useLocation();
  const data = useEditorData(type, id);
  const snap = useSnapshot(editor);
  const utils = trpc.useUtils();
  const base = baseOf(type);
  const dirty = isDirty(snap as typeof editor);
  useUnsavedGuard(dirty);
  const phone = useIsPhone();

  const statusEditable = !data.doc || isEditable(type, data.doc.stored_status);
  // A role that may only read (an accountant) sees the same form, read-only, and keeps the Aperçu tab's PDF.
  const editable = statusEditable && canWrite;
  const form = snap.form;
  // What a save of this form would write: its lines' amounts and totals, as the server computes them.
  const typed = useTypingSave(form as DocumentDraft | null, data.rules.vat, data.doc?.deposits, data.doc?.paid);

  /**
   * After a save: the list reloads, back to the list, the form resets, the message. The document's cached
   * answer becomes the saved one at once, so nothing opens the version from before the save.
   */
  const saved = (answer: DocumentWrite, after?: (docId: number, version: string) => void, quiet = false) => {
    // Quiet before an issue: its own answer (or refusal) is the one message shown, never a green one beside a red one.
    if (!quiet) showMessage(answer.messages, 200);
    utils.documents.get.setData({ id: answer.data.id }, answer.data);
    void utils.documents.invalidate();
    void utils.figures.invalidate();
    void utils.subscription.invalidate(); // the month's document counter
    markSaved();
    resetEditor();
    if (after) after(answer.data.id, answer.data.updated_at);
    else navigate(base);
  };
  const create = trpc.documents.create.useMutation();
  const update = trpc.documents.update.useMutation({ meta: { silent: true } });
  const issuing = useIssueDocument();
  const saving = create.isPending || update.isPending || issuing.isPending;

  /** The server's version, fetched now, into the form (what a stale save offers). */
  async function reload(docId: number) {
    const fresh = await utils.documents.get.fetch({ id: docId }, { staleTime: 0 });
    loadEditor(data.key, draftOf(fresh), fresh.updated_at);
  }

  /** A refused update: someone saved the document since this form was loaded → offer to reload, never overwrite. */
  async function updateRefused(docId: number, error: unknown): Promise<null> {
    // A refusal about fields (an archived customer, a due date before the date) shows beside them too.
    editor.errors = fieldErrorsOf(error);
    void utils.documents.invalidate();
    const { messages, status } = errorInfo(error);
    if (status !== 409 || messages !== DOCUMENT_MODIFIED) {
      reportError(error);
      return null;
    }
    if (
      await confirm(DOCUMENT_MODIFIED, {
        title: 'Document modifié entre-temps',
        confirmLabel: 'Recharger',
        cancelLabel: 'Garder ma saisie',
      })
    )
      await reload(docId);
    return null;
  }

  // A second click (or Ctrl+S) before the disabled button renders is ignored: one save per action.
  const guard = useActionGuard();
  const save = (after?: (docId: number, version: string) => void, quiet = false) => guard(() => saveNow(after, quiet));

  async function saveNow(after?: (docId: number, version: string) => void, quiet = false) {
    const form = editor.form;
    if (!form || saving) return;
    const parsed = documentInputSchema.safeParse(form);
    if (!parsed.success) {
      editor.errors = errorsByPath(parsed.error.issues);
      const lineKeys = parsed.error.issues.filter((i) => i.path[0] === 'items').map((i) => form.items?.[Number(i.path[1])]?.key);
      editor.expanded = [...new Set([...editor.expanded, ...lineKeys.filter((k): k is string => Boolean(k))])];
      showMessage(parsed.error.issues.map((i) => i.message).slice(0, 3), 400);
      return;
    }
    editor.errors = {};
    const answer = id
      ? await update
          .mutateAsync({ id, data: { ...parsed.data, base_updated_at: editor.base || undefined } })
          .catch((error: unknown) => updateRefused(id, error))
      : await create.mutateAsync(parsed.data).catch((error: unknown) => {
          editor.errors = fieldErrorsOf(error);
          return null;
        });
    if (answer) saved(answer, after, quiet);
  }

  /** A PDF exists for issued documents only (a draft has no number yet): the saved draft opens in its Aperçu instead. */
  function downloadAfterSave(docId: number) {
    navigate(`${base}/${docId}/view`);
    if (data.doc && data.doc.stored_status !== 'draft') window.location.assign(`/documents/download/${data.doc.uuid}`);
    else showMessage('Émettez le document pour télécharger son PDF : un brouillon n’a pas encore de numéro.', 409);
  }

  /** The send dialog opens on the Aperçu (?send=1) of an issued document; a draft is issued first, as for its PDF. */
  function sendAfterSave(docId: number) {
    if (data.doc && data.doc.stored_status !== 'draft') return navigate(`${base}/${docId}/view?send=1`);
    navigate(`${base}/${docId}/view`);
    showMessage('Émettez le document pour l’envoyer par e-mail : un brouillon n’a pas encore de numéro.', 409);
  }

  /** Annuler and close: back to the list, asking first when something is not saved; the form resets. */
  async function leave() {
    if (
      isDirty(editor) &&
      !(await confirm('Vos modifications ne sont pas enregistrées. Quitter quand même ?', {
        title: 'Modifications non enregistrées',
        confirmLabel: 'Quitter',
      }))
    )
      return;
    resetEditor();
    navigate(base);
  }

  /** Saved first, then issued from its Aperçu, where a refusal's list of missing mentions stays on screen. */
  async function saveAndIssue() {
    await save((docId, version) => {
      navigate(`${base}/${docId}/view`);
      // The version just saved is the one issued: a save from elsewhere in between is refused (409).
      void issuing.issue({ id: docId, type, base_updated_at: version }).then((result) => {
        if (result === 'canceled') showMessage('Brouillon enregistré, non émis', 200);
      });
    }, true);
  }

  // Keyboard (documents issue): Ctrl/Cmd+S saves.
  const saveRef = useRef(save);
  saveRef.current = save;
  const editableRef = useRef(editable);
  editableRef.current = editable;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        if (editableRef.current) void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (data.docError) return <p className={styles.notice}>Ce document est introuvable.</p>;
  if (!data.ready || !form || !typed || !data.settings) {
    return (
      <div role="status" className={css({ display: 'grid', placeItems: 'center', py: '16' })}>
        <Spinner label="Chargement du document" />
      </div>
    );
  }

  // Another currency than the accounting one: its rate, typed on a draft or kept at issue (a credit note's is its
  // invoice's), else Paramètres → Devises' — never today's settings for a document already issued.
  const accounting = data.settings.currency_format.currency;
  const currency = form.currency ?? 'EUR';
  const rateLock: RateLock = data.doc && data.doc.stored_status !== 'draft' ? 'issued' : data.doc?.corrects ? 'credit' : null;
  const settingsCurrency = data.currencies.find((c) => c.code === currency);
  const rate = documentRate({
    currency,
    base: accounting,
    own: form.exchange_rate,
    settings: rateLock === 'issued' ? null : settingsCurrency?.rate,
  });

  const saveButtons = (
    <>
      {(!data.doc || data.doc.stored_status === 'draft') && (
        <Button variant="outline" onClick={() => void saveAndIssue()} disabled={saving}>
          Enregistrer & émettre
        </Button>
      )}
      <Button onClick={() => void save()} loading={saving} title="Ctrl+S">
        Enregistrer
      </Button>
      <ActionMenu
        label="Autres façons d’enregistrer"
        trigger={
          <Button variant="outline" aria-label="Autres façons d’enregistrer" disabled={saving}>
            ▾
          </Button>
        }
        entries={[
          {
            value: 'print',
            label: 'Enregistrer & imprimer',
            onSelect: () => void save((docId) => navigate(`${base}/${docId}/view?print=1`)),
          },
          { value: 'download', label: 'Enregistrer & télécharger', onSelect: () => void save(downloadAfterSave) },
          { value: 'email', label: 'Enregistrer & envoyer par email', onSelect: () => void save(sendAfterSave) },
        ]}
      />
    </>
  );
  const close = (
    <Button variant="ghost" size="icon" aria-label="Fermer" onClick={() => void leave()}>
      <CloseIcon />
    </Button>
  );
  const withButtons = editable && canWrite;
  // On a phone only « Fermer » stays at the top; the save buttons move to the sticky bar at the bottom.
  const actions =
    withButtons && !phone ? (
      <>
        <Button variant="ghost" onClick={() => void leave()}>
          Annuler
        </Button>
        {saveButtons}
        {close}
      </>
    ) : (
      close
    );

  return (
    <div>
      <DocumentTabs type={type} id={id} current="edit" actions={actions} />
      {statusEditable && !canWrite && (
        <p className={styles.notice} role="note">
          Lecture seule : votre rôle permet de consulter ce document et son PDF, pas de le modifier.
        </p>
      )}
      {!statusEditable && data.doc && (
        <p className={styles.notice} role="note">
          {isLegalRecord(type)
            ? `Ce document est émis (n° ${data.doc.number}) : il ne se modifie plus. Corrigez une facture par un avoir depuis l’onglet Aperçu.`
            : `Ce document n’est plus en attente : il ne se modifie plus.`}
        </p>
      )}
      <ReadOnly readOnly={!canWrite} className={styles.layout}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <section className={styles.card} aria-label="Client et dates">
            <HeaderFields
              type={type}
              maturityLabel={maturityLabel(type)}
              paymentDays={data.settings.payment_days}
              customerName={data.customerName}
              readOnly={!editable}
              vat={data.rules.vat}
            >
              {currency !== accounting && (
                <ExchangeRateField
                  accounting={accounting}
                  currency={currency}
                  settings={settingsCurrency}
                  rate={rate}
                  lock={rateLock}
                  readOnly={!editable}
                />
              )}
            </HeaderFields>
          </section>
          <section className={styles.card} aria-label="Commande et livraison">
            <h2 className={styles.heading}>Commande et livraison</h2>
            <DeliveryFields readOnly={!editable} />
          </section>
          <section className={styles.card} aria-label="Lignes">
            <h2 className={styles.heading}>Lignes</h2>
            <LinePanels
              currencyFormat={data.settings.currency_format}
              currency={form.currency ?? 'EUR'}
              units={data.units}
              taxes={data.taxes}
              rules={data.rules}
              lines={typed.items}
              readOnly={!editable}
            />
          </section>
          <section className={styles.card} aria-label="Remise, frais et textes">
            <ExtrasSection readOnly={!editable} taxes={data.taxes} vat={data.rules.vat} />
          </section>
        </div>
        <aside className={styles.aside}>
          <TotalsCard
            totals={typed.totals}
            currencyFormat={data.settings.currency_format}
            currency={form.currency ?? 'EUR'}
            credited={data.doc?.credited ?? 0}
            showTotal={showsTotal(type)}
            vat={data.rules.vat || typed.totals.tax !== 0}
            collapsible={phone}
            inBase={currency !== accounting && rate.rate ? { currency: accounting, rate: rate.rate } : null}
          />
        </aside>
      </ReadOnly>
      {withButtons && phone && (
        <div className={styles.stickyBar} data-testid="editor-sticky-bar" data-sticky-bottom-bar>
          {saveButtons}
        </div>
      )}
    </div>
  );
}
