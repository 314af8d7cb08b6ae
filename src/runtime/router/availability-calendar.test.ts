import { describe, expect, it } from 'vitest';
import { AvailabilityCalendarSchema, calendarChanges, isOpenAt, nextOpenAt } from './availability-calendar.js';

const utc = (iso: string) => Date.parse(iso);
const nineToFive = [{ from: '09:00', to: '17:00' }];
const weekdays = { mon: nineToFive, tue: nineToFive, wed: nineToFive, thu: nineToFive, fri: nineToFive };

const dublin = AvailabilityCalendarSchema.parse({
  timeZone: 'Europe/Dublin',
  weekly: { ...weekdays, sat: nineToFive, sun: [{ from: '00:00', to: '24:00' }] },
  // The October bank holiday (last Monday of October), and other hours on the Tuesday after.
  holidays: ['2026-10-26'],
  exceptions: [{ date: '2026-10-27', hours: [{ from: '10:00', to: '12:00' }] }],
});

describe('availability calendar', () => {
  it('keeps wall-clock hours across the DST change (Dublin leaves summer time on 25 October 2026)', () => {
    // Saturday 24 October is summer time (UTC+1): 09:00 local is 08:00 UTC.
    expect(isOpenAt(dublin, utc('2026-10-24T07:59:00Z'))).toBe(false);
    expect(isOpenAt(dublin, utc('2026-10-24T08:00:00Z'))).toBe(true);
    expect(isOpenAt(dublin, utc('2026-10-24T15:59:00Z'))).toBe(true);
    expect(isOpenAt(dublin, utc('2026-10-24T16:00:00Z'))).toBe(false);
    // Friday 30 October is winter time (UTC+0): 09:00 local is 09:00 UTC.
    expect(isOpenAt(dublin, utc('2026-10-30T08:30:00Z'))).toBe(false);
    expect(isOpenAt(dublin, utc('2026-10-30T09:00:00Z'))).toBe(true);
    expect(isOpenAt(dublin, utc('2026-10-30T16:30:00Z'))).toBe(true);
  });

  it('has a 25-hour Sunday on the change day, a closed holiday and an exception', () => {
    const changes = calendarChanges(dublin, utc('2026-10-24T12:00:00Z'), utc('2026-10-28T00:00:00Z'));
    expect(changes.map((c) => [new Date(c.atMs).toISOString(), c.open])).toEqual([
      ['2026-10-24T16:00:00.000Z', false],
      // Sunday 00:00 local is still summer time (23:00 UTC Saturday); 24:00 local is 00:00 UTC Monday.
      ['2026-10-24T23:00:00.000Z', true],
      ['2026-10-26T00:00:00.000Z', false],
      // Monday 26 is the holiday; Tuesday 27 opens 10:00–12:00 only.
      ['2026-10-27T10:00:00.000Z', true],
      ['2026-10-27T12:00:00.000Z', false],
    ]);
    expect(isOpenAt(dublin, utc('2026-10-26T12:00:00Z'))).toBe(false);
  });

  it('moves a New York shift an hour in UTC when New York leaves DST (1 November 2026)', () => {
    const ny = AvailabilityCalendarSchema.parse({ timeZone: 'America/New_York', weekly: weekdays });
    const changes = calendarChanges(ny, utc('2026-10-30T00:00:00Z'), utc('2026-11-03T00:00:00Z'));
    expect(changes.map((c) => new Date(c.atMs).toISOString())).toEqual([
      '2026-10-30T13:00:00.000Z',
      '2026-10-30T21:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
      '2026-11-02T22:00:00.000Z',
    ]);
  });

  it('finds the next opening after a holiday', () => {
    expect(new Date(nextOpenAt(dublin, utc('2026-10-26T03:00:00Z')) ?? 0).toISOString()).toBe('2026-10-27T10:00:00.000Z');
    expect(nextOpenAt(dublin, utc('2026-10-24T10:00:00Z'))).toBe(utc('2026-10-24T10:00:00Z'));
  });

  it('refuses a bad configuration with a message that says what to change', () => {
    const bad = AvailabilityCalendarSchema.safeParse({ timeZone: 'Mars/Olympus', weekly: { mon: [{ from: '17:00', to: '09:00' }] } });
    expect(bad.success).toBe(false);
    const messages = bad.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain('timeZone must be an IANA time zone such as Europe/Dublin');
    expect(messages).toContain('hours must end after they start (split a night across two days)');
  });
});
