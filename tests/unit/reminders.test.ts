import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { daysBetween, dueStep, dueStepSpans, nextStep } from '../../src/shared/reminders';
import { defined } from '../../src/shared/defined';
import { defaultReminderSettings, offsetLabel, reminderSettingsSchema } from '../../src/shared/schemas/reminders';

const steps = defaultReminderSettings().steps; // -3, 7, 15, 30
const offsetAt = (daysLate: number, done: number[] = []) => dueStep(steps, daysLate, done)?.offset_days ?? null;

describe('dueStep: the one reminder to send today', () => {
  it('is nothing before the first step, then each step from its day on', () => {
    expect(offsetAt(-4)).toBeNull();
    expect(offsetAt(-3)).toBe(-3);
    expect(offsetAt(0, [-3])).toBeNull();
    expect(offsetAt(7, [-3])).toBe(7);
    expect(offsetAt(200, [-3, 7, 15, 30])).toBeNull();
  });

  it('after days down, only the most recent due step, never the ones missed', () => {
    expect(offsetAt(20)).toBe(15);
    expect(offsetAt(20, [15])).toBeNull();
    expect(offsetAt(31, [-3])).toBe(30);
  });

  it('a failed step (not in done) is tried again; a later step sent means nothing more', () => {
    expect(offsetAt(8, [-3])).toBe(7);
    expect(offsetAt(16, [30])).toBeNull();
  });

  it('never proposes a step planned before the due date once that date is reached', () => {
    expect(offsetAt(-1)).toBe(-3);
    expect(offsetAt(0)).toBeNull();
    expect(offsetAt(3)).toBeNull();
    const withDueDay = [...steps, { ...defined(steps[0], 'steps[0]'), offset_days: 0 }].sort((a, b) => a.offset_days - b.offset_days);
    expect(dueStep(withDueDay, 0, [])?.offset_days).toBe(0);
  });

  it('names the next step to come: after the due date, the first one after it', () => {
    expect(nextStep(steps, -5, [])?.offset_days).toBe(-3);
    expect(nextStep(steps, 0, [])?.offset_days).toBe(7);
    expect(nextStep(steps, 7, [7])?.offset_days).toBe(15);
    expect(nextStep(steps, 20, [30])).toBeNull();
    expect(nextStep(steps, 31, [])).toBeNull();
  });

  it('skips a disabled step', () => {
    const some = steps.map((s) => (s.offset_days === 15 ? { ...s, enabled: false } : s));
    expect(dueStep(some, 20, [-3, 7])).toBeNull();
    expect(dueStep(some, 30, [-3, 7])?.offset_days).toBe(30);
  });
});

describe('reminder schedule', () => {
  it('counts days across months and years, in calendar days', () => {
    expect(daysBetween('2026-12-31', '2027-01-20')).toBe(20);
    expect(daysBetween('2026-03-29', '2026-03-28')).toBe(-1);
  });

  it('labels an offset in French', () => {
    expect([-3, -1, 0, 1, 30].map(offsetLabel)).toEqual([
      '3 jours avant l’échéance',
      '1 jour avant l’échéance',
      'le jour de l’échéance',
      '1 jour après l’échéance',
      '30 jours après l’échéance',
    ]);
  });

  it('sorts the steps by delay when saved', () => {
    const [a, b] = steps;
    expect(reminderSettingsSchema.parse({ steps: [b, a] }).steps.map((s) => s.offset_days)).toEqual([-3, 7]);
  });
});

describe('dueStepSpans: dueStep as ranges of days late', () => {
  const stepsArb = fc.uniqueArray(
    fc.record({
      offset_days: fc.integer({ min: -20, max: 40 }),
      enabled: fc.boolean(),
      mode: fc.constantFrom('automatic' as const, 'proposed' as const),
    }),
    { selector: (s) => s.offset_days, maxLength: 8 },
  );
  it('puts each day under the span of the step dueStep weighs, with the same answer once steps are done', () => {
    const template = defined(steps[0]);
    fc.assert(
      fc.property(
        stepsArb,
        fc.integer({ min: -60, max: 80 }),
        fc.array(fc.integer({ min: -20, max: 40 }), { maxLength: 4 }),
        (raw, daysLate, done) => {
          const list = raw.map((s) => ({ ...template, ...s }));
          const span = dueStepSpans(list).find((s) => s.fromDaysLate <= daysLate && (s.toDaysLate === null || daysLate <= s.toDaysLate));
          const expected = dueStep(list, daysLate, done);
          const fromSpan = span && !done.some((d) => d >= span.step.offset_days) ? span.step : null;
          expect(fromSpan).toBe(expected);
        },
      ),
    );
  });

  it('splits the steps before the due date from those after: -3 stops on the eve, the last runs on', () => {
    expect(dueStepSpans(steps).map((s) => [s.step.offset_days, s.fromDaysLate, s.toDaysLate])).toEqual([
      [-3, -3, -1],
      [7, 7, 14],
      [15, 15, 29],
      [30, 30, null],
    ]);
  });
});
