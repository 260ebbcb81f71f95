import { css, cx } from '../../../../styled-system/css';
import type { Appointment } from '../../../shared/schemas/appointment';
import { APPOINTMENT_STATUS_LABELS } from '../../../shared/appointment-statuses';
import { listStyles } from '../../components/ui/list';
import { ResponsiveList } from '../../components/ui/responsive-list';
import { longDay } from '../../../shared/calendar-dates';
import { placeDay } from './agenda-layout';

const styles = {
  day: css({ fontSize: 'sm', fontWeight: '700', color: 'fg.muted', mt: '4', mb: '1', textTransform: 'none' }),
  hours: css({ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }),
  cancelled: css({ color: 'fg.muted', textDecoration: 'line-through' }),
  overlap: css({ color: 'warning', fontWeight: '600', ml: '2' }),
  status: css({ fontSize: 'xs', color: 'fg.muted', whiteSpace: 'nowrap' }),
};

const hoursOf = (a: Appointment) => (a.start && a.end ? `${a.start} – ${a.end}` : 'Toute la journée');

/**
 * The list view: appointments by day, in time order; overlaps named. Each day is a table on wide screens and cards
 * on a phone: the hours, the title that opens it, the customer and the status stay in sight.
 */
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
            <ResponsiveList
              label={`Rendez-vous du ${longDay(d)}`}
              rows={ofDay}
              rowKey={(a) => a.id}
              onOpen={onOpen}
              columns={[
                { key: 'hours', label: 'Horaire', card: 'amount', className: styles.hours, cell: hoursOf },
                {
                  key: 'title',
                  label: 'Rendez-vous',
                  card: 'title',
                  cell: (a) => (
                    <>
                      {/* The title is the button that opens it, from the keyboard as from a click on the row. */}
                      <button
                        type="button"
                        className={cx(listStyles.link, a.status === 'cancelled' && styles.cancelled)}
                        onClick={() => onOpen(a)}
                      >
                        {a.title}
                      </button>
                      {overlapping.has(a.id) && <span className={styles.overlap}>Chevauchement</span>}
                    </>
                  ),
                },
                { key: 'customer', label: 'Client', card: 'subtitle', cell: (a) => a.customer_name ?? '' },
                { key: 'location', label: 'Lieu', cell: (a) => a.location },
                {
                  key: 'status',
                  label: 'Statut',
                  card: 'status',
                  cell: (a) => (
                    <span className={styles.status}>
                      {APPOINTMENT_STATUS_LABELS[a.status]}
                      {a.billed_document_id !== null ? ' · facturé' : ''}
                    </span>
                  ),
                },
              ]}
            />
          </section>
        );
      })}
    </div>
  );
}
