import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { css, cx } from '../../../styled-system/css';
import { iconButton } from '../../../styled-system/recipes';
import { ui } from '../stores/ui';
import { showMessage } from '../stores/snackbar';
import { trpc } from '../trpc';
import { capturePage } from '../lib/screenshot';
// Already in the overlays' own lazy chunk (app.tsx): Ark's dialog directly, mounted closed before it first opens.
import { ArkDialogBox as Dialog } from './ui/ark-dialog';
import { Button } from './ui/button';
import { Field, Textarea } from './ui/field';
import { CameraIcon, CloseIcon } from './icons';

export const FEEDBACK_EMPTY = 'Veuillez entrer un message';
export const FEEDBACK_FAILURE = "Une erreur s'est produite lors de l'envoi du feedback";
export const FEEDBACK_SUCCESS = 'Votre feedback a été envoyé avec succès';

const styles = {
  // Grows with the text (the effect below), so no handle to drag and no scrollbar.
  textarea: css({ minH: '24', resize: 'none', overflow: 'hidden' }),
  preview: css({
    position: 'relative',
    mt: '3',
    borderRadius: 'lg',
    overflow: 'hidden',
    borderWidth: '1px',
    borderColor: 'border.default',
    '& img': { maxH: '300px', w: 'full', objectFit: 'contain', bg: 'bg.subtle' },
  }),
  remove: cx(iconButton({ tone: 'overlay' }), css({ position: 'absolute', top: '2', right: '2' })),
};

/** Feedback dialog: persistent, 400 px; message required; optional screenshot of the page. */
export function FeedbackDialog() {
  const open = useSnapshot(ui).feedback;
  const [message, setMessage] = useState('');
  const [screenshot, setScreenshot] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const send = trpc.feedback.send.useMutation({ meta: { silent: true } });

  // Auto-grow: the field is as tall as its text (4 rows at least).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the text and the opening are what change the height to measure
  useEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  }, [message, open]);

  async function capture() {
    setCapturing(true);
    const image = await capturePage();
    setCapturing(false);
    if (image) setScreenshot(image);
  }

  async function submit() {
    if (message.trim() === '') {
      setError(FEEDBACK_EMPTY);
      showMessage(FEEDBACK_EMPTY, 400);
      return;
    }
    setError(null);
    try {
      await send.mutateAsync({ message, screenshot });
      showMessage(FEEDBACK_SUCCESS, 200);
      setMessage('');
      setScreenshot(null);
    } catch {
      showMessage(FEEDBACK_FAILURE, 400); // the text and the image are kept for another try
    }
    ui.feedback = false; // closes once a send attempt finishes, either way
  }

  return (
    <Dialog
      open={open}
      onClose={() => (ui.feedback = false)}
      title="Donner votre avis"
      width={400}
      persistent
      screenshotHidden
      footer={
        <>
          <Button variant="ghost" onClick={() => (ui.feedback = false)}>
            Annuler
          </Button>
          <Button onClick={submit} loading={send.isPending}>
            Envoyer
          </Button>
        </>
      }
    >
      <Field label="Message" error={error}>
        <Textarea
          ref={textarea}
          rows={4}
          className={styles.textarea}
          placeholder="Signaler un problème ou suggérer une amélioration"
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            if (error) setError(null);
          }}
        />
      </Field>
      {screenshot ? (
        <div className={styles.preview}>
          <img src={screenshot} alt="Capture d’écran jointe" />
          <button type="button" className={styles.remove} onClick={() => setScreenshot(null)} aria-label="Retirer la capture d’écran">
            <CloseIcon size={16} />
          </button>
        </div>
      ) : (
        <Button variant="outline" size="sm" className={css({ mt: '3' })} onClick={capture} loading={capturing}>
          {!capturing && <CameraIcon size={16} />}
          Joindre une capture d’écran
        </Button>
      )}
    </Dialog>
  );
}
