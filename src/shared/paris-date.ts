// Business dates are French: a day turns at midnight in Paris, not in UTC. An instant's ISO text sliced to 10
// characters gives the UTC day, which is yesterday between midnight and 1 or 2 a.m. in Paris: every conversion from an
// instant to a calendar day goes through here, on both sides.
//
// The first Intl formatter with a time zone loads the zone database: 25–45 ms in Chromium, on the path of every page's
// first data request (its inputs hold today). Paris's offset follows the EU rule (Directive 2000/84/EC, in force since
// 1996): UTC+2 from the last Sunday of March to the last Sunday of October, both at 01:00 UTC, UTC+1 otherwise. The
// day is computed by that rule, and the rule is checked once against the zone database (checkParisRule, run by the
// server at start and by the browser when idle): should the law change, the database's answer is used from then on.

let zoneDatabase: Intl.DateTimeFormat | undefined;
function databaseDay(instant: Date): string {
  zoneDatabase ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' });
  return zoneDatabase.format(instant);
}

/** 01:00 UTC on the last Sunday of `month` (0-based) of `year`, in ms. */
function lastSundayAt1Utc(year: number, month: number): number {
  const lastDay = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, lastDay.getUTCDate() - lastDay.getUTCDay(), 1);
}

/** Paris's offset from UTC at an instant (ms) by the EU rule, in ms: an hour, two in summer. */
export function parisOffsetByRule(ms: number): number {
  const year = new Date(ms).getUTCFullYear();
  const summer = ms >= lastSundayAt1Utc(year, 2) && ms < lastSundayAt1Utc(year, 9);
  return (summer ? 2 : 1) * 3_600_000;
}

/** The Paris day of an instant by the EU rule. */
export function parisDayByRule(instant: Date): string {
  const ms = instant.getTime();
  return new Date(ms + parisOffsetByRule(ms)).toISOString().slice(0, 10);
}

let ruleHolds = true;

/** Whether the rule gave the zone database's answers when last checked (checkParisRule): true until a check says not. */
export const parisRuleHolds = (): boolean => ruleHolds;

/**
 * Compares the rule with the zone database now and six months away (both seasons); false, and the database used from
 * then on, if they disagree.
 */
export function checkParisRule(now = new Date()): boolean {
  const halfYear = new Date(now.getTime() + 182 * 86_400_000);
  ruleHolds = [now, halfYear].every((instant) =>
    [0, 1, 2, 3].every((hours) => {
      const probe = new Date(instant.getTime() + hours * 3_600_000);
      return parisDayByRule(probe) === databaseDay(probe);
    }),
  );
  return ruleHolds;
}

const dayOf = (instant: Date) => (ruleHolds ? parisDayByRule(instant) : databaseDay(instant));

/** The Paris calendar day (YYYY-MM-DD) of an instant: an ISO timestamp or a Date. */
export const parisDateOf = (instant: string | Date): string => dayOf(typeof instant === 'string' ? new Date(instant) : instant);

// The Paris day can only turn on a whole UTC hour (its offsets and their changes are whole hours): computed once an
// hour instead of once a call.
let cached = { hour: Number.NaN, date: '' };

/** Today in Paris (YYYY-MM-DD). */
export const parisToday = (now = new Date()): string => {
  const hour = Math.floor(now.getTime() / 3_600_000);
  if (hour !== cached.hour) cached = { hour, date: dayOf(now) };
  return cached.date;
};
