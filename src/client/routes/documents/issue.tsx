import { Link } from 'wouter';
import { proxy, useSnapshot } from 'valtio';
import { css } from '../../../../styled-system/css';
import { isLegalRecord } from '../../../shared/document-status';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import type { DocumentType } from '../../../shared/schemas/document';
import { errorInfo, trpc } from '../../trpc';
import { confirm } from '../../stores/confirm';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { LONG_PAYMENT_TERM } from '../../../shared/payment-terms';
import { theNoun } from '../../../shared/french';
import { capitalize } from '../../../shared/format';

/** What the server said was missing the last time a document could not be issued (shown until fixed or dismissed). */
export const issueProblems = proxy({ documentId: 0, messages: [] as string[] });

/**
 * Issuing asks first (a legal record is final), and keeps a refusal's list of missing mentions on screen. With
 * `base_updated_at` (after a save) only that saved version is issued. Whatever the answer, the document is read again.
 */
export function useIssueDocument() {
  const utils = trpc.useUtils();
  const mutation = trpc.documents.issue.useMutation({ meta: { silent: true } });
  async function issue(doc: { id: number; type: DocumentType; base_updated_at?: string }): Promise<'issued' | 'canceled' | 'refused'> {
    const question =
      DOCUMENT_TYPE_TABLE[doc.type].issueQuestion ??
      `${capitalize(theNoun(DOCUMENT_TYPE_TABLE[doc.type].noun, DOCUMENT_TYPE_TABLE[doc.type].feminine))} reçoit son numéro et part en attente de réponse. Émettre maintenant ?`;
    if (!(await confirm(question, { title: isLegalRecord(doc.type) ? 'Émettre définitivement' : 'Émettre', confirmLabel: 'Émettre' })))
      return 'canceled';
    try {
      const answer = await mutation.mutateAsync({ id: doc.id, base_updated_at: doc.base_updated_at }).catch(async (error: unknown) => {
        // C. com. L441-10: a term past 60 days for a business is issued only once the user says it was agreed.
        const longTerm = longTermRefusal(error);
        if (!longTerm) throw error;
        const confirmed = await confirm(longTerm, {
          title: 'Délai de paiement',
          confirmLabel: 'Confirmer et émettre',
          width: 440,
        });
        if (!confirmed) return null;
        return mutation.mutateAsync({ id: doc.id, base_updated_at: doc.base_updated_at, confirm_payment_terms: true });
      });
      if (!answer) {
        void utils.documents.invalidate();
        return 'canceled';
      }
      issueProblems.messages = [];
      showMessage(answer.messages, 200);
      utils.documents.get.setData({ id: doc.id }, answer.data);
      void utils.documents.invalidate();
      void utils.figures.invalidate();
      return 'issued';
    } catch (error) {
      void utils.documents.invalidate();
      const { messages, status } = errorInfo(error);
      if (status === 400) Object.assign(issueProblems, { documentId: doc.id, messages: Array.isArray(messages) ? messages : [messages] });
      else showMessage(messages, status);
      return 'refused';
    }
  }
  return { issue, isPending: mutation.isPending };
}

/** The server's refusal of a long payment term (409), as the question to ask; null for any other error. */
function longTermRefusal(error: unknown): string | null {
  const { messages, status } = errorInfo(error);
  const text = Array.isArray(messages) ? messages.join(' ') : messages;
  if (status !== 409 || !text.startsWith(LONG_PAYMENT_TERM)) return null;
  return `${text.replace(/\. Confirmez pour émettre\.$/, '')}.\n\nLe délai a-t-il été convenu avec le client ? Émettre quand même ?`;
}

/** The refusal's list, with where to fix each kind of mention. */
export function IssueProblems({ documentId, customerId }: { documentId: number; customerId: number | null }) {
  const snap = useSnapshot(issueProblems);
  if (snap.documentId !== documentId || snap.messages.length === 0) return null;
  const seller = snap.messages.some((m) => m.includes('votre entreprise'));
  const customer = snap.messages.some((m) => m.includes('du client'));
  return (
    <section
      role="alert"
      className={css({
        bg: 'dangerSubtle',
        color: 'fg.default',
        borderRadius: 'card',
        borderWidth: '1px',
        borderColor: 'danger',
        p: '4',
        mb: '4',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        fontSize: 'sm',
      })}
    >
      <p className={css({ fontWeight: '700', color: 'danger' })}>Ce document ne peut pas encore être émis : la loi exige ces mentions.</p>
      <ul className={css({ listStyle: 'disc', pl: '5' })}>
        {snap.messages.map((m) => (
          <li key={m}>{m.replace(/^Mention obligatoire manquante : /, '')}</li>
        ))}
      </ul>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
        {seller && (
          <Link href="/settings/organization" className={css({ color: 'accent.fg', fontWeight: '700' })}>
            Compléter Infos de l’entreprise
          </Link>
        )}
        {customer && customerId && (
          <Link href={`/customers/${customerId}`} className={css({ color: 'accent.fg', fontWeight: '700' })}>
            Compléter la fiche client
          </Link>
        )}
        <Button size="sm" variant="ghost" onClick={() => (issueProblems.messages = [])}>
          Fermer
        </Button>
      </div>
    </section>
  );
}
