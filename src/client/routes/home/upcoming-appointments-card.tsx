import { Link } from 'wouter';
import { css } from '../../../../styled-system/css';
import { trpc } from '../../trpc';
import { addDays, longDay } from '../../../shared/calendar-dates';
import { parisToday } from '../../../shared/paris-date';

const SHOWN = 6;

/** Today's and the next planned appointments (two weeks ahead), on the dashboard. */
export function UpcomingAppointmentsCard({ className }: { className?: string }) {
  const today = parisToday();
  const list = trpc.appointments.list.useQuery({ from: today, to: addDays(today, 14), status: 'planned' });
  const next = (list.data?.data ?? []).slice(0, SHOWN);
  return (
    <section className={className} aria-labelledby="upcoming-appointments">
      <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', mb: '2' })}>
        <h2 id="upcoming-appointments" className={css({ fontSize: 'md', fontWeight: '700' })}>
          Prochains rendez-vous
        </h2>
        <Link href="/appointments" className={css({ fontSize: 'sm', color: 'accent.default', fontWeight: '600' })}>
          Agenda
        </Link>
      </div>
      {next.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {list.isPending ? 'Chargement…' : 'Aucun rendez-vous prévu dans les deux semaines'}
        </p>
      ) : (
        next.map((a) => (
          <Link
            key={a.id}
            href={`/appointments?view=day&date=${a.date}`}
            className={css({
              display: 'grid',
              gridTemplateColumns: '11rem 1fr',
              gap: '3',
              fontSize: 'sm',
              py: '1.5',
              borderTopWidth: '1px',
              borderColor: 'border.default',
            })}
          >
            <span
              className={css({ color: a.date === today ? 'accent.default' : 'fg.muted', fontWeight: a.date === today ? '700' : '500' })}
            >
              {a.date === today ? 'Aujourd’hui' : longDay(a.date).replace(/ \d{4}$/, '')}
              {a.start ? ` · ${a.start}` : ''}
            </span>
            <span>
              {a.title}
              {a.customer_name ? <span className={css({ color: 'fg.muted' })}> — {a.customer_name}</span> : null}
            </span>
          </Link>
        ))
      )}
    </section>
  );
}
