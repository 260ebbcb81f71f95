import { useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import type { Appointment } from '../../../shared/schemas/appointment';
import { dayNumber, longDay, monthGrid, WEEKDAYS } from '../../../shared/calendar-dates';
import { placeDay } from './agenda-layout';
import { AppointmentChip, DRAG_TYPE } from './appointment-chip';
import { plural } from '../../../shared/french';

const MAX_SHOWN = 3;

const styles = {
  grid: css({
    display: 'grid',
    gridTemplateColumns: 'repeat(7, minmax(0, 1fr))',
    borderWidth: '1px',
    borderColor: 'border.default',
    borderRadius: 'xl',
    overflow: 'hidden',
    bg: 'bg.surface',
  }),
  weekday: css({
    textAlign: 'center',
    fontSize: 'xs',
    fontWeight: '700',
    color: 'fg.muted',
    py: '2',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
  }),
  cell: css({
    minH: '28',
    p: '1',
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    borderTopWidth: '1px',
    borderLeftWidth: '1px',
    borderColor: 'border.default',
    '&[data-outside=true]': { bg: 'bg.canvas', color: 'fg.subtle' },
    '&[data-drop=true]': { bg: 'accent.subtle' },
  }),
  number: css({
    fontSize: 'xs',
    fontWeight: '600',
    alignSelf: 'flex-end',
    minW: '6',
    h: '6',
    borderRadius: 'full',
    cursor: 'pointer',
    _hover: { bg: 'accent.subtle' },
  }),
  today: css({ bg: 'accent.solid', color: 'fg.onAccent' }),
};

/** Month view, Monday first: each day its appointments (click a day to create, drop on a day to move there). */
export function MonthGrid({
  date,
  today,
  appointments,
  onCreate,
  onOpen,
  onMove,
  canMove,
  onShowDay,
}: {
  date: string;
  today: string;
  appointments: Appointment[];
  onCreate: (date: string, start: string | null) => void;
  onOpen: (a: Appointment) => void;
  onMove: (a: Appointment, date: string, start: string | null) => void;
  canMove: boolean;
  onShowDay: (date: string) => void;
}) {
  const [dropAt, setDropAt] = useState('');
  const month = date.slice(0, 7);
  const byId = new Map(appointments.map((a) => [a.id, a]));
  return (
    <div className={styles.grid}>
      {WEEKDAYS.map((w) => (
        <div key={w} className={styles.weekday}>
          {w}
        </div>
      ))}
      {monthGrid(date)
        .flat()
        .map((d) => {
          const ofDay = appointments.filter((a) => a.date === d);
          const overlapping = new Set(
            placeDay(ofDay)
              .filter((p) => p.overlaps)
              .map((p) => p.appointment.id),
          );
          return (
            // biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for the mouse; the form moves an appointment by keyboard
            <div
              key={d}
              className={styles.cell}
              data-outside={d.slice(0, 7) !== month}
              data-drop={dropAt === d}
              data-day={d}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
                e.preventDefault();
                setDropAt(d);
              }}
              onDragLeave={() => setDropAt('')}
              onDrop={(e) => {
                e.preventDefault();
                setDropAt('');
                const a = byId.get(Number(e.dataTransfer.getData(DRAG_TYPE)));
                if (a) onMove(a, d, a.start);
              }}
            >
              <button
                type="button"
                className={cx(styles.number, d === today && styles.today)}
                aria-label={`Nouveau rendez-vous le ${longDay(d).toLowerCase()}`}
                onClick={() => onCreate(d, null)}
              >
                {dayNumber(d)}
              </button>
              {ofDay.slice(0, MAX_SHOWN).map((a) => (
                <AppointmentChip key={a.id} appointment={a} onOpen={onOpen} canMove={canMove} overlaps={overlapping.has(a.id)} />
              ))}
              {ofDay.length > MAX_SHOWN && (
                <button
                  type="button"
                  className={css({ fontSize: 'xs', color: 'accent.default', fontWeight: '600', textAlign: 'left' })}
                  onClick={(e) => {
                    e.stopPropagation();
                    onShowDay(d);
                  }}
                >
                  + {plural(ofDay.length - MAX_SHOWN, 'autre')}
                </button>
              )}
            </div>
          );
        })}
    </div>
  );
}
