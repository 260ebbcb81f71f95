import { css, cx } from '../../../../styled-system/css';
import type { Appointment } from '../../../shared/schemas/appointment';
import { APPOINTMENT_STATUS_LABELS } from '../../../shared/appointment-statuses';

/** The drag payload: the appointment's id, under a type of our own so a dropped file or link is ignored. */
export const DRAG_TYPE = 'application/x-facturier-appointment';

const chip = css({
  display: 'flex',
  flexDirection: 'column',
  gap: '0',
  w: 'full',
  textAlign: 'left',
  fontSize: 'xs',
  lineHeight: '1.25',
  px: '1.5',
  py: '0.5',
  borderRadius: 'md',
  borderLeftWidth: '3px',
  overflow: 'hidden',
  cursor: 'pointer',
  '&[data-movable=true]': { cursor: 'grab' },
  bg: 'accent.subtle',
  borderColor: 'accent.default',
  color: 'fg.default',
  '&[data-status=done]': { bg: 'successSubtle', borderColor: 'success' },
  '&[data-status=cancelled]': { bg: 'bg.subtle', borderColor: 'fg.subtle', color: 'fg.muted', textDecoration: 'line-through' },
  '&[data-overlaps=true]': { outline: '2px dashed', outlineColor: 'warning', outlineOffset: '-2px' },
  _focusVisible: { outline: '2px solid', outlineColor: 'accent.default' },
});

/** One line of a chip: cut with an ellipsis, never squeezed to nothing (a short chip shows its title, not its hours). */
const line = css({ flexShrink: '0', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' });

/** One appointment in a view: opens the form on click, can be dragged to another slot or day; an overlap is outlined. */
export function AppointmentChip({
  appointment: a,
  onOpen,
  overlaps = false,
  fill = false,
  canMove = true,
}: {
  appointment: Appointment;
  onOpen: (a: Appointment) => void;
  overlaps?: boolean;
  fill?: boolean;
  /** False for a member who may not edit the agenda: nothing to drag that the server would refuse. */
  canMove?: boolean;
}) {
  const movable = canMove && a.billed_document_id === null;
  const hours = a.start && a.end ? `${a.start} – ${a.end}` : 'Toute la journée';
  const title = [a.title, hours, a.customer_name, APPOINTMENT_STATUS_LABELS[a.status], overlaps ? 'Chevauche un autre rendez-vous' : '']
    .filter(Boolean)
    .join(' · ');
  return (
    <button
      type="button"
      className={cx(chip, fill && css({ h: 'full' }))}
      data-status={a.status}
      data-overlaps={overlaps}
      data-appointment={a.id}
      draggable={movable}
      data-movable={movable}
      title={movable ? `${title}\nFaites glisser pour déplacer, ou ouvrez pour changer date et heures` : title}
      aria-label={title}
      onClick={(e) => {
        e.stopPropagation();
        onOpen(a);
      }}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, String(a.id));
        e.dataTransfer.effectAllowed = 'move';
      }}
    >
      <span className={cx(line, css({ fontWeight: '700' }))}>
        {a.start && !fill ? `${a.start} ` : ''}
        {a.title}
      </span>
      {/* In the day and week grids the title comes first (a narrow column cuts the end), then the hours. */}
      {fill && a.start && a.end && (
        <span className={cx(line, css({ fontVariantNumeric: 'tabular-nums' }))}>
          {a.start} – {a.end}
        </span>
      )}
      {a.customer_name && <span className={cx(line, css({ color: 'fg.muted' }))}>{a.customer_name}</span>}
      {overlaps && <span className={cx(line, css({ color: 'warning', fontWeight: '600' }))}>Chevauchement</span>}
    </button>
  );
}
