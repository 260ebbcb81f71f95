import type { Appointment } from '../../../shared/schemas/appointment';
import { secondsToTime, timeToSeconds } from '../../../shared/time-input';

/** A timed appointment placed in its day column: its lane among those it overlaps, and whether it overlaps any. */
export interface Placed {
  appointment: Appointment;
  startS: number;
  endS: number;
  lane: number;
  lanes: number;
  overlaps: boolean;
}

/** Overlapping appointments share the column side by side (overlaps are allowed, and shown). */
export function placeDay(appointments: Appointment[]): Placed[] {
  const timed = appointments
    .filter((a) => a.start && a.end)
    .map((a) => ({ appointment: a, startS: timeToSeconds(a.start ?? ''), endS: timeToSeconds(a.end ?? '') }))
    .sort((x, y) => x.startS - y.startS || y.endS - x.endS);
  const placed: Placed[] = [];
  let cluster: Placed[] = [];
  let clusterEnd = -1;
  const close = () => {
    const lanes = Math.max(1, ...cluster.map((p) => p.lane + 1));
    for (const p of cluster) {
      p.lanes = lanes;
      p.overlaps = cluster.length > 1 && cluster.some((o) => o !== p && o.startS < p.endS && p.startS < o.endS);
    }
    cluster = [];
  };
  for (const t of timed) {
    if (t.startS >= clusterEnd && cluster.length) close();
    const used = new Set(cluster.filter((p) => p.endS > t.startS).map((p) => p.lane));
    let lane = 0;
    while (used.has(lane)) lane += 1;
    const p: Placed = { ...t, lane, lanes: 1, overlaps: false };
    cluster.push(p);
    placed.push(p);
    clusterEnd = Math.max(clusterEnd, t.endS);
  }
  if (cluster.length) close();
  return placed;
}

/** The same appointment moved to a new day and start, keeping its length; null when it would run past midnight. */
export function moved(a: Appointment, date: string, start: string | null) {
  const { id: _id, customer_name: _n, customer_email: _e, billed_document_id: _b, created_at: _c, updated_at: _u, ...rest } = a;
  if (!a.start || !a.end || start === null) return { ...rest, date };
  const length = timeToSeconds(a.end) - timeToSeconds(a.start);
  const end = timeToSeconds(start) + length;
  if (end > 86_399) return null;
  return { ...rest, date, start, end: secondsToTime(end) };
}
