import { useState } from 'react';
import { css } from '../../../../styled-system/css';
import type { Appointment } from '../../../shared/schemas/appointment';
import { trpc } from '../../trpc';
import { useCan } from '../../lib/use-can';
import { useIsWide } from '../../lib/use-media-query';
import { useQueryState } from '../../lib/use-query-state';
import { showMessage } from '../../stores/snackbar';
import { Button } from '../../components/ui/button';
import { addDays, addMonths, longDay } from '../../../shared/calendar-dates';
import { agendaView, LIST_DAYS, period, type View, VIEWS } from '../../../shared/agenda-period';
import { moved } from './agenda-layout';
import { TimeGrid } from './time-grid';
import { MonthGrid } from './month-grid';
import { AgendaList } from './agenda-list';
import type { AppointmentDraft } from './appointment-form-dialog';
import { lazyDialog } from '../../components/lazy-dialog';
import { parisToday } from '../../../shared/paris-date';

// The agenda's first load is the agenda: its dialogs come when idle, on hover or focus of what opens them, or on opening.
const appointmentForm = lazyDialog(
  () => import('./appointment-form-dialog'),
  (m) => m.AppointmentFormDialog,
);
const billing = lazyDialog(
  () => import('./bill-dialog'),
  (m) => m.BillDialog,
);
const calendarFeed = lazyDialog(
  () => import('./calendar-feed-dialog'),
  (m) => m.CalendarFeedDialog,
);

/**
 * The date a newly chosen view starts from: the first day the current view was showing (the week's Monday, the
 * month's 1st), so the list keeps in sight what the week or the month just showed, never a date carried over from
 * a step of another view.
 */
function switchedDate(from: View, to: View, date: string): string {
  if (from === to) return date;
  return from === 'month' ? `${date.slice(0, 7)}-01` : period(from, date).from;
}

const step = (view: View, date: string, direction: 1 | -1) =>
  view === 'day'
    ? addDays(date, direction)
    : view === 'week'
      ? addDays(date, 7 * direction)
      : view === 'month'
        ? addMonths(date, direction)
        : addDays(date, LIST_DAYS * direction);

const toolbar = css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'center', justifyContent: 'space-between', mb: '3' });
const segmented = css({
  display: 'inline-flex',
  borderWidth: '1px',
  borderColor: 'border.default',
  borderRadius: 'lg',
  overflow: 'hidden',
  '& button': { px: '3', h: '9', fontSize: 'sm', fontWeight: '600', color: 'fg.muted', cursor: 'pointer' },
  '& button[aria-pressed=true]': { bg: 'accent.solid', color: 'fg.onAccent' },
});

/** Rendez-vous: day, week, month and list views of the agenda; create by a slot or the button, move by drag. */
export function AppointmentsPage() {
  const wide = useIsWide();
  const today = parisToday();
  const [query, setQuery] = useQueryState();
  const { view, date } = agendaView(query, wide, today);
  const { from, to, title } = period(view, date);
  const list = trpc.appointments.list.useQuery({ from, to }, { placeholderData: (p) => p });
  const appointments = list.data?.data ?? [];
  const utils = trpc.useUtils();
  const update = trpc.appointments.update.useMutation();
  // An accountant reads the agenda: no slot to click into a new appointment, no drag, no billing.
  const canCreate = useCan('appointments.create');
  const canMove = useCan('appointments.update');
  const canBill = useCan('appointments.bill');

  const [editing, setEditing] = useState<Appointment | null>(null);
  const [draft, setDraft] = useState<AppointmentDraft | null>(null);
  const [billingOpen, setBilling] = useState(false);
  const [feed, setFeed] = useState(false);

  const create = (day: string, start: string | null) => {
    if (!canCreate) return;
    const hour = start ?? '09:00';
    const [h = '9', m = '00'] = hour.split(':');
    const end = `${String(Math.min(23, Number(h) + 1)).padStart(2, '0')}:${m}`;
    setDraft({ date: day, start: hour, end: end > hour ? end : '23:59' });
  };
  const move = (a: Appointment, day: string, start: string | null) => {
    if (!canMove || (a.date === day && (start === null || a.start === start))) return;
    const data = moved(a, day, start);
    if (!data) return showMessage('Ce rendez-vous dépasserait minuit : choisissez un créneau plus tôt', 400);
    update.mutate(
      { id: a.id, data },
      {
        onSuccess: () => showMessage(`Rendez-vous déplacé au ${longDay(day).toLowerCase()}${data.start ? ` à ${data.start}` : ''}`, 200),
        onSettled: () => void utils.appointments.invalidate(),
      },
    );
  };

  const days = view === 'day' ? [date] : Array.from({ length: 7 }, (_, i) => addDays(from, i));
  return (
    <section aria-label="Agenda des rendez-vous">
      <div className={toolbar}>
        <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
          <Button variant="outline" onClick={() => setQuery({ date: today })}>
            Aujourd’hui
          </Button>
          <Button variant="ghost" aria-label="Période précédente" onClick={() => setQuery({ date: step(view, date, -1) })}>
            ‹
          </Button>
          <Button variant="ghost" aria-label="Période suivante" onClick={() => setQuery({ date: step(view, date, 1) })}>
            ›
          </Button>
          <h2 className={css({ fontSize: 'lg', fontWeight: '700' })}>{title}</h2>
        </div>
        <div className={css({ display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
          <fieldset className={segmented} aria-label="Affichage">
            {VIEWS.filter((v) => wide || !v.wide).map((v) => (
              <button
                key={v.value}
                type="button"
                aria-pressed={view === v.value}
                onClick={() => setQuery({ view: v.value, date: switchedDate(view, v.value, date) })}
              >
                {v.label}
              </button>
            ))}
          </fieldset>
          <Button variant="outline" onClick={() => setFeed(true)} {...calendarFeed.opener}>
            S’abonner
          </Button>
          {canBill && (
            <Button variant="outline" onClick={() => setBilling(true)} {...billing.opener}>
              Facturer
            </Button>
          )}
          {canCreate && (
            <Button
              onClick={() => create(view === 'day' ? date : today < from || today > to ? from : today, null)}
              {...appointmentForm.opener}
            >
              Nouveau rendez-vous
            </Button>
          )}
        </div>
      </div>
      {view === 'month' ? (
        <MonthGrid
          date={date}
          today={today}
          appointments={appointments}
          onCreate={create}
          onOpen={setEditing}
          onMove={move}
          canMove={canMove}
          onShowDay={(d) => setQuery({ view: 'day', date: d })}
        />
      ) : view === 'list' ? (
        <AgendaList appointments={appointments} onOpen={setEditing} />
      ) : (
        <TimeGrid
          days={days}
          today={today}
          appointments={appointments}
          onCreate={create}
          onOpen={setEditing}
          onMove={move}
          canMove={canMove}
        />
      )}
      {wide && view !== 'list' && canCreate && (
        <p className={css({ fontSize: 'xs', color: 'fg.muted', mt: '2' })}>
          Cliquez sur un créneau pour ajouter un rendez-vous ; faites glisser un rendez-vous pour le déplacer, ou ouvrez-le (Entrée) pour
          changer sa date et ses heures au clavier.
        </p>
      )}
      <appointmentForm.Dialog
        open={editing !== null || draft !== null}
        appointment={editing}
        draft={draft}
        onClose={() => {
          setEditing(null);
          setDraft(null);
        }}
      />
      <billing.Dialog open={billingOpen} onClose={() => setBilling(false)} />
      <calendarFeed.Dialog open={feed} onClose={() => setFeed(false)} />
    </section>
  );
}
