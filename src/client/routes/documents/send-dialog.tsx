import { useEffect, useState } from 'react';
import { css } from '../../../../styled-system/css';
import { trpc, errorInfo } from '../../trpc';
import { useActionGuard } from '../../lib/use-action-guard';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { Field, Textarea } from '../../components/ui/field';
import { Checkbox } from '../../components/ui/checkbox';
import { Spinner } from '../../components/ui/spinner';

const styles = {
  label: css({ fontSize: 'sm', fontWeight: '600', display: 'block', mb: '1.5' }),
  textarea: css({ h: '56', lineHeight: '1.5' }),
  contacts: css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' }),
  attachment: css({
    display: 'flex',
    gap: '2',
    alignItems: 'center',
    fontSize: 'sm',
    px: '3',
    py: '2',
    borderRadius: 'lg',
    bg: 'bg.subtle',
    color: 'fg.muted',
  }),
  error: css({ color: 'danger', fontSize: 'sm', whiteSpace: 'pre-line' }),
};

/** "a@x.fr, b@y.fr" plus the ticked contacts, without duplicates. */
const ccOf = (typed: string, ticked: string[]) => [
  ...new Set([...typed.split(/[,;]/).map((a) => a.trim()), ...ticked].filter((a) => a !== '')),
];

/**
 * Envoyer par e-mail: the organisation's template for the document's type, filled in by the server, with the customer's
 * address; the sender may change the recipients, the subject and the message. The PDF goes attached (the one kept for
 * an invoice or a credit note) and the document is marked sent only once the mail server accepted the mail.
 */
export function SendDocumentDialog({
  open,
  doc,
  onClose,
}: {
  open: boolean;
  doc: { id: number; number: string | null };
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const draft = trpc.documentMail.draft.useQuery({ id: doc.id }, { enabled: open, staleTime: 0, gcTime: 0 });
  const [to, setTo] = useState('');
  const [cc, setCc] = useState('');
  const [ticked, setTicked] = useState<string[]>([]);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open || !draft.data) return;
    setTo(draft.data.to);
    setCc('');
    setTicked([]);
    setSubject(draft.data.subject);
    setMessage(draft.data.message);
    setError(null);
  }, [open, draft.data]);

  const send = trpc.documentMail.send.useMutation({
    meta: { silent: true },
    onSuccess: (answer) => {
      showMessage(answer.messages, 200);
      void utils.documents.invalidate();
      onClose();
    },
    onError: (failure) => setError([errorInfo(failure).messages].flat().join('\n')),
  });
  const guard = useActionGuard();
  const submit = () => {
    setError(null);
    const copies = ccOf(cc, ticked);
    void guard(() => send.mutateAsync({ id: doc.id, to, cc: copies.length > 0 ? copies : undefined, subject, message }));
  };
  const toggle = (email: string) => setTicked((list) => (list.includes(email) ? list.filter((e) => e !== email) : [...list, email]));

  return (
    <Dialog
      open={open}
      onClose={onClose}
      width={620}
      title={`Envoyer ${doc.number ?? ''} par e-mail`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Annuler
          </Button>
          <Button onClick={submit} loading={send.isPending} disabled={!draft.data}>
            Envoyer
          </Button>
        </>
      }
    >
      {!draft.data ? (
        <div className={css({ display: 'flex', justifyContent: 'center', py: '8' })}>
          {draft.error ? <p className={styles.error}>{[errorInfo(draft.error).messages].flat().join('\n')}</p> : <Spinner />}
        </div>
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2' })}>
          <TextField
            label="Destinataire"
            type="text"
            inputMode="email"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            hint={draft.data.to ? undefined : 'Ce client n’a pas d’adresse e-mail : saisissez-en une'}
            autoFocus={!draft.data.to}
          />
          {draft.data.contacts.length > 0 && (
            <fieldset className={styles.contacts}>
              <legend className={styles.label}>Contacts du client en copie</legend>
              {draft.data.contacts.map((c) => (
                <Checkbox key={c.email} checked={ticked.includes(c.email)} onChange={() => toggle(c.email)}>
                  {c.name}
                  {c.role ? ` (${c.role})` : ''} — {c.email}
                </Checkbox>
              ))}
            </fieldset>
          )}
          <TextField label="Copie" value={cc} onChange={(e) => setCc(e.target.value)} placeholder="autre@exemple.fr, …" />
          <TextField label="Objet" value={subject} onChange={(e) => setSubject(e.target.value)} />
          <Field label="Message">
            <Textarea className={styles.textarea} value={message} onChange={(e) => setMessage(e.target.value)} />
          </Field>
          <div className={styles.attachment}>Pièce jointe : {draft.data.attachment}</div>
          {error && (
            <p role="alert" className={styles.error}>
              {error}
            </p>
          )}
        </div>
      )}
    </Dialog>
  );
}
