import { css } from '../../../../styled-system/css';
import { APPOINTMENT_STATUS_LABELS, type Appointment } from '../../../shared/schemas/appointment';
import { longDay } from './calendar-dates';
import { placeDay } from './agenda-layout';

const styles = {
  day: css({ fontSize: 'sm', fontWeight: '700', color: 'fg.muted', mt: '4', mb: '1', textTransform: 'none' }),
  row: css({
    display: 'grid',
    // On a phone the hours go above the title: three columns would squeeze the title to a word a line.
    gridTemplateColumns: { base: '1fr auto', sm: '8.5rem 1fr auto' },
    columnGap: '3',
    rowGap: '0.5',
    alignItems: 'center',
    w: 'full',
    textAlign: 'left',
    px: '3',
    py: '2',
    borderRadius: 'lg',
    bg: 'bg.surface',
    borderWidth: '1px',
    borderColor: 'border.default',
    mb: '1',
    cursor: 'pointer',
    _hover: { borderColor: 'border.strong' },
    '&[data-status=cancelled]': { color: 'fg.muted', textDecoration: 'line-through' },
  }),
};

/** The list view: appointments by day, in time order; overlaps named. */
export function AgendaList({ appointments, onOpen }: { appointments: Appointment[]; onOpen: (a: Appointment) => void }) {
  if (appointments.length === 0)
    return <p className={css({ color: 'fg.muted', fontSize: 'sm', py: '8', textAlign: 'center' })}>Aucun rendez-vous sur cette période</p>;
  const days = [...new Set(appointments.map((a) => a.date))];
  return (
    <div>
      {days.map((d) => {
        const ofDay = appointments.filter((a) => a.date === d);
        const overlapping = new Set(
          placeDay(ofDay)
            .filter((p) => p.overlaps)
            .map((p) => p.appointment.id),
        );
        return (
          <section key={d} aria-label={longDay(d)}>
            <h3 className={styles.day}>{longDay(d)}</h3>
            {ofDay.map((a) => (
              <button key={a.id} type="button" className={styles.row} data-status={a.status} onClick={() => onOpen(a)}>
                <span className={css({ fontVariantNumeric: 'tabular-nums', fontSize: 'sm', gridColumn: { base: '1 / -1', sm: 'auto' } })}>
                  {a.start && a.end ? `${a.start} – ${a.end}` : 'Toute la journée'}
                </span>
                <span className={css({ display: 'flex', flexDirection: 'column' })}>
                  <span className={css({ fontWeight: '600' })}>{a.title}</span>
                  <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                    {[a.customer_name, a.location].filter(Boolean).join(' · ')}
                    {overlapping.has(a.id) && <span className={css({ color: 'warning', fontWeight: '600', ml: '2' })}>Chevauchement</span>}
                  </span>
                </span>
                <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                  {APPOINTMENT_STATUS_LABELS[a.status]}
                  {a.billed_document_id !== null ? ' · facturé' : ''}
                </span>
              </button>
            ))}
          </section>
        );
      })}
    </div>
  );
}
