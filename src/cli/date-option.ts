import { isCalendarDate } from '../domain/calendar.js';

/**
 * Why the date given to `option` (--as-of, --since) is not one to use, or null when it is: its
 * shape, a day the calendar does not have (2025-02-30), or, with `notAfter`, a day still to come.
 */
export function dateProblem(option: string, raw: string, notAfter: string | null): string | null {
  const shape = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!shape)
    return `${option} takes a date written YYYY-MM-DD, e.g. 2025-07-01; got ${JSON.stringify(raw.slice(0, 40))}`;
  if (!isCalendarDate(raw)) {
    const month = Number(shape[2]);
    if (month < 1 || month > 12) return `${option} ${raw} is not a date: there is no month ${shape[2]}`;
    if (Number(shape[3]) < 1) return `${option} ${raw} is not a date: there is no day ${shape[3]}`;
    const days = new Date(Date.UTC(Number(shape[1]), month, 0)).getUTCDate();
    const name = new Date(Date.UTC(2000, month - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' });
    return `${option} ${raw} is not a date: ${name} ${shape[1]} has ${days} days`;
  }
  if (notAfter !== null && raw > notAfter)
    return `${option} ${raw} is after today (${notAfter}, UTC): the record holds nothing later than today`;
  return null;
}
