// Frequency of a series: inferred from its timestamps (calendar months first, so month ends stay
// month ends; else the median step), used to step forecast timestamps, to name the frequency, to
// pick the seasonal period and the calendar features, and to write timestamps like the input's.

import type { CalendarPart, Frequency, OrderFormat } from './types';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const WEEK = 7 * DAY;

/** Share of steps that must equal the median for a series to count as regular. */
const REGULAR_SHARE = 0.9;

export interface InferredFrequency {
  freq: Frequency;
  /** At least 90 % of the steps equal the inferred one. */
  regular: boolean;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}

/**
 * The frequency of ascending, distinct order values, or null with fewer than two. Dates whose
 * days of month are all the 1st, all month ends, or all the same day step in whole calendar months
 * (the median number of months between rows); anything else steps by the median difference. A
 * series with gaps or jitter still gets that median step (and is labelled irregular).
 */
export function inferFrequency(t: Float64Array, format: OrderFormat): InferredFrequency | null {
  const n = t.length;
  if (n < 2) return null;
  if (format === 'number') {
    const d: number[] = [];
    for (let i = 1; i < n; i++) d.push(t[i] - t[i - 1]);
    const step = median(d);
    return { freq: { unit: 'number', step }, regular: shareEqual(d, step) >= REGULAR_SHARE };
  }
  let allFirst = true;
  let allEnd = true;
  let allSame = true;
  let day0 = -1;
  const months: number[] = [];
  let prevMonth = 0;
  for (let i = 0; i < n; i++) {
    const d = new Date(t[i]);
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth();
    const day = d.getUTCDate();
    if (day !== 1) allFirst = false;
    if (day !== daysInMonth(y, m)) allEnd = false;
    if (i === 0) day0 = day;
    else if (day !== day0) allSame = false;
    const mi = y * 12 + m;
    if (i > 0) months.push(mi - prevMonth);
    prevMonth = mi;
  }
  if (allFirst || allEnd || allSame) {
    const step = Math.round(median(months));
    if (step >= 1) {
      const anchor = allEnd ? 'end' : allFirst ? 'start' : 'day';
      return {
        freq: { unit: 'month', months: step, anchor, day: day0 },
        regular: shareEqual(months, step) >= REGULAR_SHARE,
      };
    }
  }
  const d: number[] = [];
  for (let i = 1; i < n; i++) d.push(t[i] - t[i - 1]);
  const ms = median(d);
  if (ms === DAY && weekdaysOnly(t)) {
    // Business days (trading days, office days): forecasts step over weekends, and a step is
    // regular when it is the next weekday (an exchange holiday is a gap, as in pandas' 'B').
    let next = 0;
    for (let i = 1; i < n; i++) if (addWeekdays(t[i - 1], 1) === t[i]) next++;
    return {
      freq: { unit: 'ms', ms, weekdays: true },
      regular: next / (n - 1) >= REGULAR_SHARE,
    };
  }
  return { freq: { unit: 'ms', ms }, regular: shareEqual(d, ms) >= REGULAR_SHARE };
}

const isWeekend = (ms: number) => {
  const w = new Date(ms).getUTCDay();
  return w === 0 || w === 6;
};

/**
 * No row falls on a Saturday or Sunday and some step spans a weekend (a Friday to the Monday
 * after): a few weekday rows in a row are not yet evidence of business days.
 */
function weekdaysOnly(t: Float64Array): boolean {
  let spans = false;
  for (let i = 0; i < t.length; i++) {
    if (isWeekend(t[i])) return false;
    if (i > 0 && t[i] - t[i - 1] >= 3 * DAY && new Date(t[i]).getUTCDay() === 1) spans = true;
  }
  return spans;
}

/** `t` moved `j` weekdays on (back when negative), its time of day kept. */
function addWeekdays(t: number, j: number): number {
  const dir = Math.sign(j);
  let out = t;
  for (let k = Math.abs(j); k > 0;) {
    out += dir * DAY;
    if (!isWeekend(out)) k--;
  }
  return out;
}

function shareEqual(d: number[], step: number): number {
  let k = 0;
  for (const x of d) if (Math.abs(x - step) <= 1e-9 * Math.max(1, Math.abs(step))) k++;
  return d.length ? k / d.length : 1;
}

/** The order value `j` steps after `last`. */
export function stepTime(last: number, f: Frequency, j: number): number {
  if (f.unit === 'number') {
    const v = last + j * f.step;
    // Whole-number orders (years, period indexes) stay whole despite float steps like 1.0000001.
    return Number.isInteger(last) && Number.isInteger(f.step) ? Math.round(v) : v;
  }
  if (f.unit === 'ms') return f.weekdays ? addWeekdays(last, j) : last + j * f.ms;
  const d = new Date(last);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + j * f.months;
  const ty = y + Math.floor(m / 12);
  const tm = ((m % 12) + 12) % 12;
  const dim = daysInMonth(ty, tm);
  const day = f.anchor === 'end' ? dim : f.anchor === 'start' ? 1 : Math.min(f.day, dim);
  const timeOfDay = last - Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(ty, tm, day) + timeOfDay;
}

function plural(x: number, unit: string): string {
  return `every ${x} ${unit}${x === 1 ? '' : 's'}`;
}

function duration(ms: number): string {
  if (ms === DAY) return 'daily';
  if (ms === WEEK) return 'weekly';
  if (ms === HOUR) return 'hourly';
  if (ms % WEEK === 0) return plural(ms / WEEK, 'week');
  if (ms % DAY === 0) return plural(ms / DAY, 'day');
  if (ms % HOUR === 0) return plural(ms / HOUR, 'hour');
  if (ms % 60_000 === 0) return plural(ms / 60_000, 'minute');
  if (ms >= DAY) return `every ${+(ms / DAY).toPrecision(3)} days`;
  if (ms >= HOUR) return `every ${+(ms / HOUR).toPrecision(3)} hours`;
  return `every ${+(ms / 1000).toPrecision(3)} seconds`;
}

/** 'monthly', 'quarterly (month-end)', 'daily', 'irregular (median step: every 3 days)', ... */
export function frequencyLabel(inf: InferredFrequency): string {
  const f = inf.freq;
  let s: string;
  if (f.unit === 'number') s = `every ${+f.step.toPrecision(6)} (numeric order)`;
  else if (f.unit === 'ms') s = f.weekdays ? 'business daily (Monday to Friday)' : duration(f.ms);
  else {
    const names: Record<number, string> = {
      1: 'monthly',
      3: 'quarterly',
      6: 'semiannual',
      12: 'yearly',
    };
    s = names[f.months] ?? plural(f.months, 'month');
    if (f.anchor === 'end') s += ' (month-end)';
    else if (f.anchor === 'start') s += ' (month-start)';
  }
  return inf.regular ? s : `irregular (median step: ${s})`;
}

/**
 * Steps per season: a year of months / quarters / half-years, a week of days (5 business days),
 * a day of hours, a year of weeks. 1 (no seasonality) for other steps and numeric orders.
 */
export function seasonalPeriod(f: Frequency): number {
  if (f.unit === 'month') return [1, 2, 3, 4, 6].includes(f.months) ? 12 / f.months : 1;
  if (f.unit === 'ms') {
    if (f.weekdays) return 5;
    if (f.ms === HOUR) return 24;
    if (f.ms === DAY) return 7;
    if (f.ms === WEEK) return 52;
  }
  return 1;
}

/**
 * The step of a daily series, whose statistical candidates may also model a yearly season
 * (stat/yearly.ts); undefined for other frequencies.
 */
export function yearlyStep(f: Frequency): number | undefined {
  return f.unit === 'ms' && f.ms === DAY ? DAY : undefined;
}

/** Calendar parts of the target timestamp that vary at this frequency. */
export function calendarParts(f: Frequency): CalendarPart[] {
  if (f.unit === 'number') return [];
  if (f.unit === 'month') {
    if (f.months === 3) return ['quarter'];
    if (f.months === 1) return ['month', 'monthdays'];
    return 12 % f.months === 0 && f.months < 12 ? ['month'] : [];
  }
  if (f.ms < DAY) return ['hour', 'dayofweek'];
  if (f.ms < WEEK) return ['dayofweek', 'dayofmonth', 'month'];
  if (f.ms < 28 * DAY) return ['weekofyear', 'month'];
  return ['month'];
}

/** The calendar parts of an epoch-ms timestamp into out[o ...] (NaN for a NaN time). */
export function writeCalendar(
  ms: number,
  parts: readonly CalendarPart[],
  out: Float64Array,
  o: number,
): void {
  if (parts.length === 0) return;
  if (Number.isNaN(ms)) {
    for (let p = 0; p < parts.length; p++) out[o + p] = NaN;
    return;
  }
  const d = new Date(ms);
  for (let p = 0; p < parts.length; p++) {
    let v: number;
    switch (parts[p]) {
      case 'month':
        v = d.getUTCMonth() + 1;
        break;
      case 'quarter':
        v = Math.floor(d.getUTCMonth() / 3) + 1;
        break;
      case 'dayofweek':
        v = d.getUTCDay();
        break;
      case 'dayofmonth':
        v = d.getUTCDate();
        break;
      case 'dayofyear':
        v = dayOfYear(d);
        break;
      case 'weekofyear':
        v = Math.floor((dayOfYear(d) - 1) / 7) + 1;
        break;
      case 'hour':
        v = d.getUTCHours();
        break;
      case 'monthdays':
        v = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
        break;
    }
    out[o + p] = v;
  }
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY) + 1;
}

const pad = (x: number, w = 2) => String(x).padStart(w, '0');

/**
 * An order value written like the input: a number, 'YYYY-MM-DD', 'YYYY-MM-DD HH:MM:SS', ISO
 * with its zone ('...T01:00:00.000Z'; the rows' own zone, '...T01:00:00+02:00', where they wrote
 * one: `v` is then that zone's wall clock) or ISO text without one ('2010-01-01T01:00:00').
 */
export function formatOrder(v: number, format: OrderFormat): number | string {
  if (format === 'number') return v;
  const d = new Date(v);
  if (format === 'iso') return d.toISOString();
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (format === 'date') return date;
  const ms = d.getUTCMilliseconds();
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const zone = format === 'datetime' || format === 'isolocal' ? '' : format.slice(3);
  return `${date}${format === 'datetime' ? ' ' : 'T'}${time}${ms ? '.' + pad(ms, 3) : ''}${zone}`;
}

/**
 * The calendar steps with no row between ascending order values `t` at frequency `f`: each gap
 * that is a whole number k >= 2 of steps counts k - 1, and the first such gap is returned as its
 * two bounding values. Business days (a holiday is a gap by design) and gaps that are no whole
 * number of steps (jitter) count none.
 */
export function missingSteps(
  t: Float64Array,
  f: Frequency,
): { count: number; first: [number, number] | null } {
  let count = 0;
  let first: [number, number] | null = null;
  if (f.unit === 'ms' && f.weekdays) return { count, first };
  for (let i = 1; i < t.length; i++) {
    let k: number;
    if (f.unit === 'month') {
      const a = new Date(t[i - 1]);
      const b = new Date(t[i]);
      k =
        ((b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth()) /
        f.months;
    } else {
      k = (t[i] - t[i - 1]) / (f.unit === 'ms' ? f.ms : f.step);
    }
    if (k >= 2 - 1e-9 && Math.abs(k - Math.round(k)) <= 1e-9 * k) {
      count += Math.round(k) - 1;
      first ??= [t[i - 1], t[i]];
    }
  }
  return { count, first };
}
