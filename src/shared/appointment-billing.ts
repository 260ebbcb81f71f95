import { div, mul, round, type Money } from './money';
import { timeToSeconds } from './time-input';

/** Seconds an appointment lasts (0 for an all-day one, which has no hours to bill). */
export const durationSeconds = (a: { start: string | null; end: string | null }): number =>
  a.start && a.end ? timeToSeconds(a.end) - timeToSeconds(a.start) : 0;

/** The quantity billed: the duration in hours, to 4 decimals like every line quantity (45 min → 0.75; 1 h 20 → 1.3333). */
export const billedHours = (a: { start: string | null; end: string | null }): Money => round(div(durationSeconds(a), 3600), 4);

/** A line's amount before tax at an hourly rate, as the invoice will compute it (quantity × price, to the cent). */
export const billedAmount = (a: { start: string | null; end: string | null }, hourlyRate: number | string): Money =>
  round(mul(billedHours(a), hourlyRate), 2);

/** '1 h 30 min', '45 min', '2 h'. */
export function durationLabel(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  if (h && m) return `${h} h ${String(m).padStart(2, '0')} min`;
  return h ? `${h} h` : `${m} min`;
}
