#!/usr/bin/env node
// Writes a large iCalendar file for measuring the importer (`cal-events import --ics FILE`):
// N VEVENTs spread over two years around today, with venues (LOCATION), organizers, categories,
// zones, all-day events and a share of weekly series (some with an override), deterministic for
// one N. Usage: node scripts/generate-ics.mjs 50000 > /tmp/50k.ics
import { createWriteStream } from 'node:fs';

const count = Number(process.argv[2] ?? 5000);
const out = process.argv[3] ? createWriteStream(process.argv[3]) : process.stdout;
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write('usage: generate-ics.mjs COUNT [FILE]\n');
  process.exit(2);
}

// One fixed seed: the same N gives the same file, so two measurements compare.
let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x100000000;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const venues = Array.from(
  { length: Math.max(5, Math.round(count / 50)) },
  (_, i) => `Hall ${i}\\, ${i} Main Street\\, Springfield`,
);
const organizers = Array.from({ length: Math.max(3, Math.round(count / 100)) }, (_, i) => `Organizer ${i}`);
const categories = ['Music', 'Theatre', 'Sport', 'Talks', 'Family', 'Film', 'Food', 'Dance', 'Art', 'Science'];
const zones = ['Europe/Brussels', 'America/New_York', 'Asia/Tokyo', null];

const pad = (n) => String(n).padStart(2, '0');
const stamp = (date) =>
  `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}00`;
const day = (date) => stamp(date).slice(0, 8);
// RFC 5545 §3.1: lines of at most 75 octets, continued with a space (the texts here are ASCII).
const fold = (line) => {
  const parts = [];
  for (let i = 0; i < line.length; i += 74) parts.push((i === 0 ? '' : ' ') + line.slice(i, i + 74));
  return parts.join('\r\n');
};

const write = (lines) => out.write(`${lines.map(fold).join('\r\n')}\r\n`);
write(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//cal-events//generate-ics//EN', 'X-WR-CALNAME:Generated']);
const origin = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - 365 * 86_400_000;
for (let i = 0; i < count; i += 1) {
  const start = new Date(
    origin + Math.floor(random() * 730) * 86_400_000 + (8 + Math.floor(random() * 12)) * 3_600_000,
  );
  const end = new Date(start.getTime() + (1 + Math.floor(random() * 3)) * 3_600_000);
  const zone = pick(zones);
  const allDay = random() < 0.05;
  const series = random() < 0.02;
  const uid = `gen-${i}@generate-ics`;
  const lines = ['BEGIN:VEVENT', `UID:${uid}`, `DTSTAMP:${stamp(new Date(origin))}Z`];
  if (allDay)
    lines.push(`DTSTART;VALUE=DATE:${day(start)}`, `DTEND;VALUE=DATE:${day(new Date(start.getTime() + 86_400_000))}`);
  else if (zone) lines.push(`DTSTART;TZID=${zone}:${stamp(start)}`, `DTEND;TZID=${zone}:${stamp(end)}`);
  else lines.push(`DTSTART:${stamp(start)}Z`, `DTEND:${stamp(end)}Z`);
  lines.push(
    `SUMMARY:Event ${i}: ${pick(['Concert', 'Lecture', 'Match', 'Workshop', 'Screening'])} ${i % 97}`,
    `DESCRIPTION:Generated event ${i}. ${'Lorem ipsum dolor sit amet\\, consectetur adipiscing elit. '.repeat(1 + (i % 4))}`,
    `LOCATION:${pick(venues)}`,
    `ORGANIZER;CN=${pick(organizers)}:mailto:org${i % organizers.length}@example.org`,
    `CATEGORIES:${pick(categories)},${pick(categories)}`,
    `URL:https://example.org/events/${i}`,
  );
  if (series) lines.push(`RRULE:FREQ=WEEKLY;COUNT=${4 + (i % 20)}`);
  lines.push('END:VEVENT');
  if (series && i % 3 === 0 && !allDay) {
    // An override of the second occurrence: an hour later, another title.
    const second = new Date(start.getTime() + 7 * 86_400_000);
    const moved = new Date(second.getTime() + 3_600_000);
    const prop = zone ? `;TZID=${zone}:` : ':';
    const z = zone ? '' : 'Z';
    lines.push(
      'BEGIN:VEVENT',
      `UID:${uid}`,
      `DTSTAMP:${stamp(new Date(origin))}Z`,
      `RECURRENCE-ID${prop}${stamp(second)}${z}`,
      `DTSTART${prop}${stamp(moved)}${z}`,
      `DTEND${prop}${stamp(new Date(moved.getTime() + 3_600_000))}${z}`,
      `SUMMARY:Event ${i} (moved)`,
      'END:VEVENT',
    );
  }
  write(lines);
}
write(['END:VCALENDAR']);
if (out !== process.stdout) out.end();
