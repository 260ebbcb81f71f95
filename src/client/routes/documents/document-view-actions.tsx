import { useState } from 'react';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import { useLocation, useSearch } from 'wouter';
import { css } from '../../../../styled-system/css';
import { MANUAL_TRANSITIONS, PAYABLE_STATUSES, transitionLabel, isEditable, type StoredStatus } from '../../../shared/document-status';
import type { DocumentType } from '../../../shared/schemas/document';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { ActionMenu, type MenuEntry } from '../../components/ui/action-menu';
import { baseOf, documentHref } from './document-meta';
import { DocumentRowActions } from './document-row-actions';
import { CreditNoteDialog } from './credit-note-dialog';
import { useIssueDocument } from './issue';
import { DepositDialog } from './deposit-dialog';
import { SendDocumentDialog } from './send-dialog';
import type { useEditorData } from './editor/use-editor-data';

type Doc = NonNullable<ReturnType<typeof useEditorData>['doc']>;

/** What can be done with a saved document from its Aperçu: issue, move its status, deposits, credit notes, payments. */
export function DocumentViewActions({ doc }: { doc: Doc }) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  // 'Enregistrer & envoyer par email' lands here with ?send=1: the send dialog opens at once.
  const sendAsked = new URLSearchParams(useSearch()).has('send') && doc.stored_status !== 'draft';
  const [dialog, setDialog] = useState<'credit' | 'deposit' | 'send' | null>(sendAsked ? 'send' : null);
  const refresh = (answer: { messages: string }) => {
    showMessage(answer.messages, 200);
    void utils.documents.invalidate();
    void utils.figures.invalidate();
  };
  const issuing = useIssueDocument();
  const setStatus = trpc.documents.setStatus.useMutation({ onSuccess: refresh });
  const markSent = trpc.documents.markSent.useMutation({ onSuccess: refresh });
  const status = doc.stored_status as StoredStatus;
  const type = doc.type as DocumentType;
  const transitions = MANUAL_TRANSITIONS[type][status] ?? [];
  // Print and the PDF for every role; each change only for a role the server lets make it (an accountant reads).
  const can = {
    issue: useCan('documents.issue'),
    edit: useCan('documents.update'),
    send: useCan('documentMail.send'),
    pay: useCan('documents.recordPayment'),
    setStatus: useCan('documents.setStatus'),
    markSent: useCan('documents.markSent'),
    deposit: useCan('documents.deposit'),
    credit: useCan('documents.convert'),
  };
  const editable = isEditable(type, status) && can.edit;

  /** The PDF the customer gets. Downloading it sends nothing: « Envoyé » comes from the e-mail or from the menu by hand. */
  const download = () => window.location.assign(`/documents/download/${doc.uuid}`);
  const more: MenuEntry[] = [
    { value: 'print', label: 'Imprimer', onSelect: () => window.print() },
    ...(status !== 'draft' ? [{ value: 'download', label: 'Télécharger le PDF', onSelect: download }] : []),
    ...(can.setStatus ? transitions : []).map((to) => ({
      value: `status-${to}`,
      label: transitionLabel(to, doc.type),
      onSelect: () => setStatus.mutate({ id: doc.id, status: to as 'pending' | 'accepted' | 'refused' | 'done' }),
    })),
    ...(status !== 'draft' && !doc.sent_at && can.markSent
      ? [{ value: 'sent', label: 'Marquer comme envoyé', onSelect: () => markSent.mutate({ id: doc.id }) }]
      : []),
    ...((type === 'estimate' || type === 'order') && ['pending', 'accepted', 'done', 'converted'].includes(status) && can.deposit
      ? [{ value: 'deposit', label: 'Facturer un acompte', onSelect: () => setDialog('deposit') }]
      : []),
    ...(DOCUMENT_TYPE_TABLE[type].receivesPayments && PAYABLE_STATUSES.includes(status) && can.credit
      ? [{ value: 'credit', label: 'Établir un avoir partiel', onSelect: () => setDialog('credit') }]
      : []),
  ];

  return (
    <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
      {status === 'draft' && can.issue && (
        <Button onClick={() => void issuing.issue(doc)} loading={issuing.isPending}>
          Émettre
        </Button>
      )}
      {editable && (
        <Button variant="outline" onClick={() => navigate(documentHref(doc, 'edit'))}>
          Modifier
        </Button>
      )}
      {status !== 'draft' && can.send && (
        <Button variant="outline" onClick={() => setDialog('send')}>
          Envoyer par e-mail
        </Button>
      )}
      {DOCUMENT_TYPE_TABLE[type].receivesPayments && PAYABLE_STATUSES.includes(status) && status !== 'paid' && can.pay && (
        <Button variant="outline" onClick={() => navigate(documentHref(doc, 'payments'))}>
          Enregistrer un paiement
        </Button>
      )}
      <ActionMenu label="Plus d’actions" entries={more} trigger={<Button variant="outline">Plus</Button>} />
      <DocumentRowActions doc={{ ...doc, status: doc.status }} onDeleted={() => navigate(baseOf(type))} opened />
      <CreditNoteDialog open={dialog === 'credit'} invoice={doc} onClose={() => setDialog(null)} />
      <DepositDialog open={dialog === 'deposit'} source={doc} onClose={() => setDialog(null)} />
      {dialog === 'send' && (
        <SendDocumentDialog
          open
          doc={doc}
          onClose={() => {
            setDialog(null);
            if (sendAsked) navigate(documentHref(doc, 'view'), { replace: true });
          }}
        />
      )}
    </div>
  );
}
