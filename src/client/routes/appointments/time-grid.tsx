import { useState } from 'react';
import { css, cx } from '../../../../styled-system/css';
import type { Appointment } from '../../../shared/schemas/appointment';
import { secondsToTime, timeToSeconds } from '../../../shared/time-input';
import { dayNumber, longDay, weekdayName } from '../../../shared/calendar-dates';
import { placeDay } from './agenda-layout';
import { AppointmentChip, DRAG_TYPE } from './appointment-chip';

const HOUR_PX = 48;
const SLOT_S = 1800;

const styles = {
  wrap: css({ overflowX: 'auto', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'xl', bg: 'bg.surface' }),
  head: css({
    display: 'grid',
    borderBottomWidth: '1px',
    borderColor: 'border.default',
    position: 'sticky',
    top: '0',
    bg: 'bg.surface',
    zIndex: '2',
  }),
  dayHead: css({ textAlign: 'center', py: '2', fontSize: 'sm', color: 'fg.muted', borderLeftWidth: '1px', borderColor: 'border.default' }),
  today: css({ color: 'accent.default', fontWeight: '700' }),
  allDay: css({
    display: 'flex',
    flexDirection: 'column',
    gap: '1',
    p: '1',
    minH: '7',
    borderLeftWidth: '1px',
    borderColor: 'border.default',
  }),
  body: css({ display: 'grid', position: 'relative' }),
  hourLabel: css({ fontSize: 'xs', color: 'fg.muted', textAlign: 'right', pr: '2', transform: 'translateY(-0.5em)' }),
  column: css({ position: 'relative', borderLeftWidth: '1px', borderColor: 'border.default' }),
  slot: css({
    display: 'block',
    w: 'full',
    borderTopWidth: '1px',
    borderTopStyle: 'dotted',
    borderColor: 'border.default',
    cursor: 'pointer',
    _hover: { bg: 'bg.subtle' },
    _focusVisible: { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '-2px' },
    // The hour lines are solid, the half hours dotted.
    '&[data-hour]': { borderTopStyle: 'solid' },
    '&[data-drop=true]': { bg: 'accent.subtle' },
  }),
};

/** Day and week views: half-hour slots (click to create, drop to move) and the appointments placed by their hours. */
export function TimeGrid({
  days,
  today,
  appointments,
  onCreate,
  onOpen,
  onMove,
  canMove,
}: {
  days: string[];
  today: string;
  appointments: Appointment[];
  onCreate: (date: string, start: string | null) => void;
  onOpen: (a: Appointment) => void;
  onMove: (a: Appointment, date: string, start: string | null) => void;
  canMove: boolean;
}) {
  const [dropAt, setDropAt] = useState('');
  const timed = appointments.filter((a) => a.start && a.end);
  const firstHour = Math.min(7, ...timed.map((a) => Math.floor(timeToSeconds(a.start ?? '') / 3600)));
  const lastHour = Math.max(21, ...timed.map((a) => Math.ceil(timeToSeconds(a.end ?? '') / 3600)));
  const hours = Array.from({ length: lastHour - firstHour }, (_, i) => firstHour + i);
  const columns = `3.5rem repeat(${days.length}, minmax(${days.length > 1 ? '7.5rem' : '12rem'}, 1fr))`;
  const byId = new Map(appointments.map((a) => [a.id, a]));
  const drop = (e: React.DragEvent, date: string, start: string | null) => {
    e.preventDefault();
    setDropAt('');
    const a = byId.get(Number(e.dataTransfer.getData(DRAG_TYPE)));
    if (a) onMove(a, date, start);
  };
  const allow = (key: string) => (e: React.DragEvent) => {
    if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    setDropAt(key);
  };
  return (
    <div className={styles.wrap}>
      <div className={styles.head} style={{ gridTemplateColumns: columns }}>
        <span />
        {days.map((d) => (
          <div key={d} className={cx(styles.dayHead, d === today && styles.today)} title={longDay(d)} data-weekday={d}>
            {days.length > 1 ? `${weekdayName(d)} ${dayNumber(d)}` : longDay(d)}
          </div>
        ))}
        <span className={css({ fontSize: '2xs', color: 'fg.muted', alignSelf: 'center', textAlign: 'right', pr: '2' })}>Journée</span>
        {days.map((d) => (
          // biome-ignore lint/a11y/noStaticElementInteractions: a drop zone for the mouse; the form moves an appointment by keyboard
          <div
            key={d}
            className={styles.allDay}
            data-drop={dropAt === `${d}-all`}
            onDragOver={allow(`${d}-all`)}
            onDragLeave={() => setDropAt('')}
            onDrop={(e) => drop(e, d, null)}
          >
            {appointments
              .filter((a) => a.date === d && !a.start)
              .map((a) => (
                <AppointmentChip key={a.id} appointment={a} onOpen={onOpen} canMove={canMove} />
              ))}
          </div>
        ))}
      </div>
      <div className={styles.body} style={{ gridTemplateColumns: columns }}>
        <div>
          {hours.map((h) => (
            // Each label sits on its hour's line; the first one just under it, as the day heads cover that line.
            <div key={h} className={styles.hourLabel} style={{ height: HOUR_PX, transform: h === firstHour ? 'none' : undefined }}>
              {`${String(h).padStart(2, '0')}:00`}
            </div>
          ))}
        </div>
        {days.map((d) => (
          <div key={d} className={styles.column} data-day={d}>
            {hours.flatMap((h) =>
              [0, 1].map((half) => {
                const start = secondsToTime(h * 3600 + half * SLOT_S);
                const key = `${d}-${start}`;
                return (
                  <button
                    type="button"
                    key={key}
                    className={styles.slot}
                    style={{ height: HOUR_PX / 2 }}
                    data-hour={half === 0 ? '' : undefined}
                    data-slot={key}
                    data-drop={dropAt === key}
                    aria-label={`${longDay(d)} à ${start}`}
                    // Out of the Tab order (hundreds of slots): « Nouveau rendez-vous » is their keyboard equivalent.
                    tabIndex={-1}
                    onClick={() => onCreate(d, start)}
                    onDragOver={allow(key)}
                    onDragLeave={() => setDropAt('')}
                    onDrop={(e) => drop(e, d, start)}
                  />
                );
              }),
            )}
            {placeDay(appointments.filter((a) => a.date === d)).map((p) => {
              const top = ((p.startS - firstHour * 3600) / 3600) * HOUR_PX;
              const height = Math.max(18, ((p.endS - p.startS) / 3600) * HOUR_PX - 2);
              return (
                <div
                  key={p.appointment.id}
                  className={css({ position: 'absolute', px: '0.5' })}
                  style={{ top, height, left: `${(p.lane / p.lanes) * 100}%`, width: `${100 / p.lanes}%` }}
                >
                  <AppointmentChip appointment={p.appointment} onOpen={onOpen} canMove={canMove} overlaps={p.overlaps} fill />
                </div>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
