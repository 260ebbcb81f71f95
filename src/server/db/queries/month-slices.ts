/**
 * A period [from, to] (ISO days, inclusive) cut where the monthly summaries can answer: the whole months inside it
 * (`months`, first and last 'YYYY-MM', absent when none) and the days at its edges (`edges`, at most two ranges, read
 * from the documents): a period of a year reads twelve months of sums and at most two partial months of documents.
 */
export interface MonthSlices {
  months?: { first: string; last: string };
  edges: { from: string; to: string }[];
}

const monthOf = (day: string) => day.slice(0, 7);

function shiftMonth(month: string, by: number): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

function lastDayOf(month: string): string {
  const d = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0));
  return d.toISOString().slice(0, 10);
}

export function monthSlices(from: string, to: string): MonthSlices {
  // Text comparisons, as the queries make them: a bound before a month's first day or after its last covers it whole.
  const first = from <= `${monthOf(from)}-01` ? monthOf(from) : shiftMonth(monthOf(from), 1);
  const last = to >= lastDayOf(monthOf(to)) ? monthOf(to) : shiftMonth(monthOf(to), -1);
  if (first > last) return { edges: from <= to ? [{ from, to }] : [] };
  const edges: MonthSlices['edges'] = [];
  if (from < `${first}-01`) edges.push({ from, to: lastDayOf(shiftMonth(first, -1)) });
  if (to > lastDayOf(last)) edges.push({ from: `${shiftMonth(last, 1)}-01`, to });
  return { months: { first, last }, edges };
}

/** The first day of the month after `month` ('YYYY-MM'). */
export const firstDayAfter = (month: string): string => `${shiftMonth(month, 1)}-01`;
