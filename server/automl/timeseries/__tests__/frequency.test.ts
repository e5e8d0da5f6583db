import { describe, expect, it } from 'vitest';
import {
  calendarParts,
  formatOrder,
  frequencyLabel,
  inferFrequency,
  seasonalPeriod,
  stepTime,
  writeCalendar,
} from '../frequency';
import type { OrderFormat } from '../types';

const ms = (s: string) =>
  Date.parse(s.length === 10 ? s + 'T00:00:00Z' : s.replace(' ', 'T') + 'Z');
const times = (xs: string[]) => Float64Array.from(xs, ms);
const day = (d: number) => formatOrder(Date.UTC(2024, 0, 1) + d * 86_400_000, 'date') as string;

function infer(xs: string[], format: OrderFormat = 'date') {
  const inf = inferFrequency(times(xs), format)!;
  return { ...inf, label: frequencyLabel(inf) };
}

describe('frequency inference per series', () => {
  it('reads quarter ends as quarterly month-end and steps to the next quarter ends (06-30 -> 09-30 -> 12-31)', () => {
    const f = infer(['2019-03-31', '2019-06-30', '2019-09-30']);
    expect(f.freq).toEqual({ unit: 'month', months: 3, anchor: 'end', day: 31 });
    expect(f.label).toBe('quarterly (month-end)');
    expect(formatOrder(stepTime(ms('2019-09-30'), f.freq, 1), 'date')).toBe('2019-12-31');
    expect(formatOrder(stepTime(ms('2019-09-30'), f.freq, 2), 'date')).toBe('2020-03-31');
    expect(formatOrder(stepTime(ms('2019-09-30'), f.freq, 3), 'date')).toBe('2020-06-30');
  });

  it('keeps monthly month ends at month ends across February and leap years', () => {
    const f = infer(['2019-11-30', '2019-12-31', '2020-01-31']).freq;
    expect(frequencyLabel({ freq: f, regular: true })).toBe('monthly (month-end)');
    expect(formatOrder(stepTime(ms('2020-01-31'), f, 1), 'date')).toBe('2020-02-29');
    expect(formatOrder(stepTime(ms('2020-01-31'), f, 2), 'date')).toBe('2020-03-31');
  });

  it('reads first-of-month dates as monthly month-start, and the same day each month as monthly', () => {
    expect(infer(['2024-01-01', '2024-02-01', '2024-03-01']).label).toBe('monthly (month-start)');
    const mid = infer(['2024-01-15', '2024-02-15', '2024-03-15']);
    expect(mid.label).toBe('monthly');
    expect(formatOrder(stepTime(ms('2024-03-15'), mid.freq, 1), 'date')).toBe('2024-04-15');
  });

  it('reads yearly, daily, weekly and hourly steps', () => {
    expect(infer(['2019-12-31', '2020-12-31', '2021-12-31']).label).toBe('yearly (month-end)');
    expect(infer([day(0), day(1), day(2), day(3)]).label).toBe('daily');
    expect(infer([day(0), day(7), day(14)]).label).toBe('weekly');
    const h = infer(
      ['2024-01-01 00:00:00', '2024-01-01 01:00:00', '2024-01-01 02:00:00'],
      'datetime',
    );
    expect(h.label).toBe('hourly');
    expect(formatOrder(stepTime(ms('2024-01-01 02:00:00'), h.freq, 1), 'datetime')).toBe(
      '2024-01-01 03:00:00',
    );
  });

  it('handles an irregular series by its median step and says it is irregular', () => {
    // Daily with two missing days and one doubled gap: the median step is still one day.
    const f = infer([day(0), day(1), day(2), day(4), day(5), day(8), day(9), day(10)]);
    expect(f.freq).toEqual({ unit: 'ms', ms: 86_400_000 });
    expect(f.regular).toBe(false);
    expect(f.label).toBe('irregular (median step: daily)');
  });

  it('reads weekday-only days as business days: steps over weekends, a week of 5, holidays as gaps', () => {
    // Three weeks of trading days from Monday 2024-01-01, Friday 01-12 a holiday (a gap).
    const xs = [0, 1, 2, 3, 4, 7, 8, 9, 10, 14, 15, 16, 17, 18].map(day);
    const f = infer(xs);
    expect(f.freq).toEqual({ unit: 'ms', ms: 86_400_000, weekdays: true });
    expect(f.label).toBe('business daily (Monday to Friday)');
    expect(f.regular).toBe(true);
    expect(seasonalPeriod(f.freq)).toBe(5);
    // From Friday 01-19: Monday 01-22, and the fifth step Friday 01-26.
    expect(formatOrder(stepTime(ms(day(18)), f.freq, 1), 'date')).toBe('2024-01-22');
    expect(formatOrder(stepTime(ms(day(18)), f.freq, 5), 'date')).toBe('2024-01-26');
    // Four weekdays in a row (no weekend between them yet) stay daily, as do days with a Saturday.
    expect(infer([day(0), day(1), day(2), day(3)]).freq).toEqual({ unit: 'ms', ms: 86_400_000 });
    expect(infer([0, 1, 2, 3, 4, 5, 7, 8].map(day)).freq).toEqual({ unit: 'ms', ms: 86_400_000 });
  });

  it('steps numeric orders by their median difference and keeps whole numbers whole', () => {
    const f = inferFrequency(Float64Array.from([1990, 1991, 1992, 1994]), 'number')!;
    expect(f.freq).toEqual({ unit: 'number', step: 1 });
    expect(stepTime(1994, f.freq, 3)).toBe(1997);
    expect(frequencyLabel(f)).toBe('irregular (median step: every 1 (numeric order))');
  });

  it('needs two timestamps', () => {
    expect(inferFrequency(times(['2024-01-01']), 'date')).toBeNull();
  });
});

describe('seasons and calendar features follow the frequency', () => {
  it('uses a year of months / quarters, a week of days, a day of hours', () => {
    expect(seasonalPeriod({ unit: 'month', months: 1, anchor: 'start', day: 1 })).toBe(12);
    expect(seasonalPeriod({ unit: 'month', months: 3, anchor: 'end', day: 31 })).toBe(4);
    expect(seasonalPeriod({ unit: 'month', months: 12, anchor: 'end', day: 31 })).toBe(1);
    expect(seasonalPeriod({ unit: 'ms', ms: 86_400_000 })).toBe(7);
    expect(seasonalPeriod({ unit: 'ms', ms: 3_600_000 })).toBe(24);
    expect(seasonalPeriod({ unit: 'number', step: 1 })).toBe(1);
    expect(calendarParts({ unit: 'month', months: 3, anchor: 'end', day: 31 })).toEqual([
      'quarter',
    ]);
    expect(calendarParts({ unit: 'month', months: 1, anchor: 'start', day: 1 })).toEqual([
      'month',
      'monthdays',
    ]);
    // Month length: February of a leap year, of another year, and a 31-day month.
    const out = new Float64Array(2);
    const parts = ['month', 'monthdays'] as const;
    writeCalendar(Date.UTC(2024, 1, 1), parts, out, 0);
    expect([...out]).toEqual([2, 29]);
    writeCalendar(Date.UTC(2023, 1, 28), parts, out, 0);
    expect([...out]).toEqual([2, 28]);
    writeCalendar(Date.UTC(2023, 11, 31), parts, out, 0);
    expect([...out]).toEqual([12, 31]);
    expect(calendarParts({ unit: 'ms', ms: 86_400_000 })).toEqual([
      'dayofweek',
      'dayofmonth',
      'month',
    ]);
    expect(calendarParts({ unit: 'number', step: 1 })).toEqual([]);
  });

  it('writes timestamps the way the input wrote them', () => {
    const t = Date.UTC(2024, 1, 29, 13, 5, 9);
    expect(formatOrder(t, 'date')).toBe('2024-02-29');
    expect(formatOrder(t, 'datetime')).toBe('2024-02-29 13:05:09');
    expect(formatOrder(t + 250, 'datetime')).toBe('2024-02-29 13:05:09.250');
    expect(formatOrder(t, 'iso')).toBe('2024-02-29T13:05:09.000Z');
    expect(formatOrder(2031, 'number')).toBe(2031);
  });
});
