import assert from 'node:assert/strict';
import type { TestApp } from './app.js';

const NS = '/cal/events/v1';

/**
 * A realistic stretch of calendar for the month and week grids (November 2026 to January 2027):
 * a market all December, festivals crossing month and week boundaries, a day full of long events
 * with a ballet starting that day, several events a day, a weekly series, a party over midnight,
 * and a draft that must show nowhere. Returns the ids by name.
 */
export async function seedGridCalendar(t: TestApp): Promise<Record<string, number>> {
  const admin = (await t.asUser('administrator')).authorization;
  const ids: Record<string, number> = {};
  const post = async (url: string, body: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
    return res.data as { id: number; slug: string };
  };
  ids['festivals'] = (await post(`${NS}/categories`, { name: 'Festivals' })).id;
  ids['ballet'] = (await post(`${NS}/categories`, { name: 'Ballet' })).id;
  const event = async (
    name: string,
    title: string,
    start: string,
    end: string,
    extra: Record<string, unknown> = {},
  ) => {
    const allDay = start.length === 10;
    ids[name] = (
      await post(`${NS}/events`, {
        title,
        start_date: start,
        end_date: end,
        ...(allDay ? { all_day: true } : {}),
        ...extra,
      })
    ).id;
  };
  const festival = { categories: [ids['festivals']] };
  await event('market', 'Christmas Market on the Cathedral Square', '2026-11-27', '2026-12-24');
  await event('exhibition', 'Winter Exhibition', '2026-12-01', '2027-01-10');
  await event('lights', 'Festival of Lights', '2026-11-28', '2026-12-02', festival);
  await event('jazz', 'Jazz Weekend', '2026-12-04', '2026-12-06', festival);
  await event('film', 'Film Festival', '2026-12-16 10:00:00', '2026-12-20 22:00:00', festival);
  await event('choir', 'Choir Days', '2026-12-17', '2026-12-19');
  await event('books', 'Book Fair', '2026-12-18', '2026-12-21');
  await event('nutcracker', 'The Nutcracker', '2026-12-18 19:30:00', '2026-12-18 22:00:00', {
    categories: [ids['ballet']],
  });
  await event('yoga', 'Morning Yoga', '2026-12-18 07:00:00', '2026-12-18 08:00:00');
  await event('lunch', 'Lunch Concert', '2026-12-18 12:00:00', '2026-12-18 13:00:00');
  await event('crafts', 'Craft Workshop', '2026-12-18 15:00:00', '2026-12-18 17:00:00');
  for (let i = 1; i <= 5; i += 1)
    await event(`talk${i}`, `Talk ${i}`, `2026-12-10 1${i}:00:00`, `2026-12-10 1${i}:45:00`);
  for (const day of ['04', '11', '18', '25'])
    await event(`jamNov${day}`, 'Wednesday Jam', `2026-11-${day} 20:00:00`, `2026-11-${day} 23:00:00`);
  for (const day of ['02', '09', '16', '23', '30'])
    await event(`jamDec${day}`, 'Wednesday Jam', `2026-12-${day} 20:00:00`, `2026-12-${day} 23:00:00`);
  for (const day of ['2026-11-29', '2026-12-06', '2026-12-13', '2026-12-20'])
    await event(`advent${day}`, 'Advent Concert', `${day} 17:00:00`, `${day} 18:30:00`);
  await event('party', "New Year's Eve Party", '2026-12-31 22:00:00', '2027-01-01 02:00:00');
  await event('draft', 'Secret Draft Fair', '2026-12-10', '2026-12-12', { status: 'draft' });
  await event('lateNov', 'Late Autumn Walk', '2026-11-30 09:00:00', '2026-11-30 11:00:00');
  return ids;
}
