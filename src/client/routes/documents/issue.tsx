import { Link } from 'wouter';
import { proxy, useSnapshot } from 'valtio';
import { css } from '../../../../styled-system/css';
import { isLegalRecord } from '../../../shared/document-status';
import { DOCUMENT_TYPE_TABLE } from '../../../shared/document-types';
import type { DocumentType } from '../../../shared/schemas/document';
import { errorInfo, trpc } from '../../trpc';
import { confirm } from '../../stores/confirm';
import { closeSnackbar, showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { LONG_PAYMENT_TERM } from '../../../shared/payment-terms';
import { theNoun } from '../../../shared/french';
import { capitalize } from '../../../shared/format';
import { READY_TO_ISSUE } from '../../../shared/einvoice-directory';

/**
 * Why the document could not be issued, the last time it was tried: one banner, always the current attempt's reason
 * (cleared when a new attempt starts). `mentions` lists what the law asks for; otherwise `messages` say what to fix.
 */
export const issueProblems = proxy({ documentId: 0, messages: [] as string[], mentions: false });

export function clearIssueProblems() {
  issueProblems.messages = [];
}

/**
 * Issuing validates first, then asks (a legal record is final): the server checks everything without writing
 * (`dry_run`), a refusal stays on screen in the banner beside the document, and only a document that would be issued
 * gets the « Émettre définitivement ? » question. With `base_updated_at` (after a save) only that saved version is
 * issued. Whatever the answer, the document is read again.
 */
export function useIssueDocument() {
  const utils = trpc.useUtils();
  const mutation = trpc.documents.issue.useMutation({ meta: { silent: true } });

  /** The refusal into the banner (400 missing mentions, 409 a rule such as the chronological date); else the snackbar. */
  function refused(documentId: number, error: unknown): 'refused' {
    void utils.documents.invalidate();
    const { messages, status } = errorInfo(error);
    const list = Array.isArray(messages) ? messages : [messages];
    if (status === 400 || status === 409) {
      closeSnackbar(); // no green « Mis à jour avec succès » left beside the red reason
      Object.assign(issueProblems, { documentId, messages: list, mentions: list.some((m) => m.startsWith(MISSING_MENTION)) });
    } else showMessage(messages, status);
    return 'refused';
  }

  async function issue(doc: { id: number; type: DocumentType; base_updated_at?: string }): Promise<'issued' | 'canceled' | 'refused'> {
    clearIssueProblems();
    const base = { id: doc.id, base_updated_at: doc.base_updated_at };
    // 1. Validate: every check the issue makes, nothing written.
    let confirmTerms = false;
    let warning: string | null = null;
    try {
      const checked = await mutation.mutateAsync({ ...base, dry_run: true }).catch(async (error: unknown) => {
        // C. com. L441-10: a term past 60 days for a business is issued only once the user says it was agreed.
        const longTerm = longTermRefusal(error);
        if (!longTerm) throw error;
        confirmTerms = await confirm(longTerm, { title: 'Délai de paiement', confirmLabel: 'Confirmer', width: 440 });
        if (!confirmTerms) throw CANCELED;
        return mutation.mutateAsync({ ...base, dry_run: true, confirm_payment_terms: true });
      });
      // Something to know before the number is taken (a customer absent from the e-invoicing directory).
      if (checked.messages !== READY_TO_ISSUE) warning = checked.messages;
    } catch (error) {
      if (error === CANCELED) return 'canceled';
      return refused(doc.id, error);
    }
    // 2. Then ask, once the document is known to be issuable.
    const question =
      DOCUMENT_TYPE_TABLE[doc.type].issueQuestion ??
      `${capitalize(theNoun(DOCUMENT_TYPE_TABLE[doc.type].noun, DOCUMENT_TYPE_TABLE[doc.type].feminine))} reçoit son numéro et part en attente de réponse. Émettre maintenant ?`;
    const title = isLegalRecord(doc.type) ? 'Émettre définitivement ?' : 'Émettre ?';
    if (!(await confirm(warning ? `${warning}\n\n${question}` : question, { title, confirmLabel: 'Émettre' }))) return 'canceled';
    // 3. Issue.
    try {
      const answer = await mutation.mutateAsync({ ...base, ...(confirmTerms ? { confirm_payment_terms: true } : {}) });
      clearIssueProblems();
      showMessage(answer.messages, 200);
      utils.documents.get.setData({ id: doc.id }, answer.data);
      void utils.documents.invalidate();
      void utils.figures.invalidate();
      return 'issued';
    } catch (error) {
      return refused(doc.id, error);
    }
  }
  return { issue, isPending: mutation.isPending };
}

const CANCELED = Symbol('canceled');
const MISSING_MENTION = 'Mention obligatoire manquante : ';

/** The server's refusal of a long payment term (409), as the question to ask; null for any other error. */
function longTermRefusal(error: unknown): string | null {
  const { messages, status } = errorInfo(error);
  const text = Array.isArray(messages) ? messages.join(' ') : messages;
  if (status !== 409 || !text.startsWith(LONG_PAYMENT_TERM)) return null;
  return `${text.replace(/\. Confirmez pour émettre\.$/, '')}.\n\nLe délai a-t-il été convenu avec le client ? Émettre quand même ?`;
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
      <p className={css({ fontWeight: '700', color: 'danger' })}>
        {snap.mentions
          ? 'Ce document ne peut pas encore être émis : la loi exige ces mentions.'
          : 'Ce document ne peut pas encore être émis :'}
      </p>
      <ul className={css({ listStyle: 'disc', pl: '5' })}>
        {snap.messages.map((m) => (
          <li key={m}>{m.replace(MISSING_MENTION, '')}</li>
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
        <Button size="sm" variant="ghost" onClick={clearIssueProblems}>
          Fermer
        </Button>
      </div>
    </section>
  );
}
