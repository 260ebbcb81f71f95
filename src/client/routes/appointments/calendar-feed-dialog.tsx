import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import { formatDateShort } from '../../../shared/format';
import { trpc } from '../../trpc';
import { showMessage } from '../../stores/snackbar';
import { Dialog } from '../../components/ui/dialog';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { parisDateOf } from '../../../shared/paris-date';

/** The private iCalendar address a phone or desktop calendar subscribes to; shown once (only its hash is kept), revocable. */
export function CalendarFeedDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const feed = trpc.appointments.feed.useQuery(undefined, { enabled: open });
  const [url, setUrl] = useState<string | null>(null);
  const create = trpc.appointments.createFeed.useMutation({
    onSuccess: (answer) => {
      setUrl(answer.data.url);
      showMessage(answer.messages, 200);
      void utils.appointments.feed.invalidate();
    },
  });
  const revoke = trpc.appointments.revokeFeed.useMutation({
    onSuccess: (answer) => {
      setUrl(null);
      showMessage(answer.messages, 200);
      void utils.appointments.feed.invalidate();
    },
  });
  const since = feed.data?.created_at;
  return (
    <Dialog open={open} onClose={onClose} title="S’abonner depuis un agenda" width={560}>
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '3', pb: '2', fontSize: 'sm' })}>
        <p>
          Ajoutez vos rendez-vous à Google Agenda, Apple Calendrier ou Outlook avec une adresse privée (« S’abonner par URL »). Gardez-la
          pour vous : qui la connaît voit vos rendez-vous.
        </p>
        {url && (
          <TextField label="Adresse d’abonnement (affichée une seule fois)" value={url} readOnly onFocus={(e) => e.target.select()} />
        )}
        {since && !url && (
          <p className={css({ color: 'fg.muted' })}>Une adresse est active depuis le {formatDateShort(parisDateOf(since))}.</p>
        )}
        <div className={css({ display: 'flex', gap: '2' })}>
          <Button onClick={() => create.mutate()} loading={create.isPending}>
            {since ? 'Remplacer l’adresse' : 'Créer l’adresse'}
          </Button>
          {since && (
            <Button variant="outline" onClick={() => revoke.mutate()} loading={revoke.isPending}>
              Révoquer
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
