import { useState } from 'react';
import { copyText } from '../../lib/copy-text';
import { useLocation } from 'wouter';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/routers/_app';
import { CONVERSIONS, CONVERTIBLE_FROM, isEditable, isLegalRecord, type StoredStatus } from '../../../shared/document-status';
import type { DocumentType } from '../../../shared/schemas/document';
import { trpc } from '../../trpc';
import { useCanCall } from '../../lib/use-can';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { ActionMenu, type MenuEntry } from '../../components/ui/action-menu';
import { TYPE_LABELS, documentHref } from './document-meta';
import { useIssueDocument } from './issue';
import { SendDocumentDialog } from './send-dialog';

export type DocumentListEntry = inferRouterOutputs<AppRouter>['documents']['list']['data'][number];

export { CLIPBOARD_UNAVAILABLE } from '../../lib/copy-text';

/** Drafts open in the editor, issued documents in their view. */
export const openHref = (doc: Pick<DocumentListEntry, 'id' | 'type' | 'status'>) =>
  documentHref(doc, doc.status === 'draft' ? 'edit' : 'view');

/** Overdue (Exigible) is derived from an unpaid or partly paid invoice: the status machine knows only the stored one. */
const storedStatus = (status: string): StoredStatus => (status === 'overdue' ? 'unpaid' : (status as StoredStatus));

/** Issued invoices and credit notes are never deleted (CGI art. 242 nonies A); the server answers 409 anyway. */
export const isDeletable = (doc: Pick<DocumentListEntry, 'type' | 'status'>) => doc.status === 'draft' || !isLegalRecord(doc.type);

function copyShareLink(uuid: string) {
  return copyText(`${window.location.origin}/share/${uuid}`, 'Lien copié avec succès');
}

/** The "⋮" menu of one list row: open, edit, duplicate, convert, share, delete, as the status machine allows. */
/** `opened`: the menu of the document's own page, where opening and editing are already at hand. */
export function DocumentRowActions({
  doc,
  onDeleted,
  opened,
}: {
  doc: Pick<DocumentListEntry, 'id' | 'type' | 'status' | 'number' | 'uuid'>;
  onDeleted?: () => void;
  opened?: boolean;
}) {
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const refresh = () => Promise.all([utils.documents.list.invalidate(), utils.figures.invalidate()]);
  const toNewDraft = (answer: { messages: string; data: { id: number; type: DocumentType } }) => {
    showMessage(answer.messages);
    void refresh();
    navigate(documentHref(answer.data, 'edit'));
  };
  const duplicate = trpc.documents.duplicate.useMutation({ onSuccess: toNewDraft });
  const convert = trpc.documents.convert.useMutation({ onSuccess: toNewDraft });
  const remove = trpc.documents.delete.useMutation({
    onSuccess: async (answer) => {
      await refresh();
      showMessage(answer.messages);
      onDeleted?.();
    },
  });

  // Each entry only for a role the server lets do it (the procedure's rule, lib/procedure-rules.ts): an accountant keeps open and share.
  // One session read for the six (a list draws a menu per row).
  const allows = useCanCall();
  const can = {
    issue: allows('documents.issue'),
    edit: allows('documents.update'),
    duplicate: allows('documents.duplicate'),
    convert: allows('documents.convert'),
    send: allows('documentMail.send'),
    remove: allows('documents.delete'),
  };
  const issuing = useIssueDocument();
  const [sending, setSending] = useState(false);
  const busy = issuing.isPending || duplicate.isPending || convert.isPending || remove.isPending;
  const convertible = CONVERTIBLE_FROM[doc.type].includes(storedStatus(doc.status));
  const name = doc.number ?? 'brouillon';
  const entries: MenuEntry[] = [
    ...(opened ? [] : [{ value: 'open', label: 'Ouvrir', onSelect: () => navigate(openHref(doc)) }]),
    // A refusal lists the missing mentions on the document's Aperçu.
    ...(doc.status === 'draft' && !opened && can.issue
      ? [
          {
            value: 'issue',
            label: 'Émettre',
            disabled: busy,
            onSelect: async () => ((await issuing.issue(doc)) === 'refused' ? navigate(documentHref(doc, 'view')) : undefined),
          },
        ]
      : []),
    ...(isEditable(doc.type, doc.status) && !opened && can.edit
      ? [{ value: 'edit', label: 'Modifier', onSelect: () => navigate(documentHref(doc, 'edit')) }]
      : []),
    ...(can.duplicate
      ? [{ value: 'duplicate', label: 'Dupliquer', disabled: busy, onSelect: () => duplicate.mutate({ id: doc.id }) }]
      : []),
    ...(can.convert ? CONVERSIONS[doc.type] : []).map((target) => ({
      value: `convert-${target}`,
      label: `Convertir en ${TYPE_LABELS[target].one.toLowerCase()}`,
      disabled: busy || !convertible,
      hint: convertible ? undefined : doc.status === 'draft' ? 'Émettez d’abord le document' : 'Ce document ne peut plus être converti',
      onSelect: () => convert.mutate({ id: doc.id, type: target }),
    })),
    ...(doc.status !== 'draft'
      ? [
          ...(can.send ? [{ value: 'send', label: 'Envoyer par e-mail', onSelect: () => setSending(true) }] : []),
          { value: 'share', label: 'Copier le lien de partage', onSelect: () => void copyShareLink(doc.uuid) },
        ]
      : []),
    ...(isDeletable(doc) && can.remove
      ? [
          { separator: true as const, value: 'sep' },
          {
            value: 'delete',
            label: 'Supprimer',
            tone: 'danger' as const,
            disabled: busy,
            onSelect: async () => {
              if (await confirm('Voulez-vous vraiment supprimer ?')) remove.mutate({ id: doc.id });
            },
          },
        ]
      : []),
  ];
  return (
    <>
      {entries.length > 0 && <ActionMenu label={`Actions ${TYPE_LABELS[doc.type].one.toLowerCase()} ${name}`} entries={entries} />}
      {sending && <SendDocumentDialog open doc={doc} onClose={() => setSending(false)} />}
    </>
  );
}
