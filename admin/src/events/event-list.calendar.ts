import { useCallback } from 'react';
import { useDataProvider, useNotify, type HttpError } from 'react-admin';
import type { DurationInput, EventDropArg } from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { dateToWall, wallToDate, type EventRecord } from './event-list.format';

/** A wall time moved by a FullCalendar duration: the same calendar step in the event's own zone. */
function shift(
  wall: string,
  delta: DurationInput & { years?: number; months?: number; days?: number; milliseconds?: number },
) {
  const date = wallToDate(wall);
  date.setUTCFullYear(date.getUTCFullYear() + (delta.years ?? 0), date.getUTCMonth() + (delta.months ?? 0));
  date.setUTCDate(date.getUTCDate() + (delta.days ?? 0));
  return dateToWall(new Date(date.getTime() + (delta.milliseconds ?? 0)));
}

/**
 * The calendar's drags: a move shifts start and end by the same step, a stretch the end (or the
 * start), each a PATCH through the data provider after reading the event for its If-Match tag.
 * When someone else saved it meanwhile (412, or a newer version than the one shown) or the user
 * may not change it (403), the event goes back and the notification says why.
 */
export function useCalendarMoves() {
  const dataProvider = useDataProvider();
  const notify = useNotify();

  /** Saves a move or a stretch, or puts the event back and says why. */
  const save = useCallback(
    async (info: EventDropArg | EventResizeDoneArg, changes: Partial<EventRecord>, done: string) => {
      const shown = info.event.extendedProps['record'] as EventRecord;
      try {
        // The version the move starts from: its tag goes with the PATCH as If-Match.
        const { data: current } = await dataProvider.getOne<EventRecord>('events', {
          id: shown.id,
          meta: { query: { context: 'edit' } },
        });
        if (current.modified !== shown.modified) throw Object.assign(new Error('changed'), { status: 412 });
        const { data: saved } = await dataProvider.update<EventRecord>('events', {
          id: shown.id,
          data: changes,
          previousData: current,
        });
        info.event.setExtendedProp('record', { ...current, ...saved });
        notify(done, { type: 'success' });
      } catch (error) {
        info.revert();
        const status = (error as HttpError).status;
        if (status === 412) notify('cal.events.calendar.conflict', { type: 'warning' });
        else if (status === 403 || status === 401) notify('cal.events.calendar.forbidden', { type: 'error' });
        else
          notify('cal.events.calendar.failed', {
            type: 'error',
            messageArgs: { message: (error as Error).message },
          });
      }
    },
    [dataProvider, notify],
  );

  const onDrop = useCallback(
    (info: EventDropArg) => {
      const record = info.event.extendedProps['record'] as EventRecord;
      const changes = {
        start_date: shift(record.start_date, info.delta),
        end_date: shift(record.end_date, info.delta),
      };
      void save(info, changes, 'cal.events.calendar.moved');
    },
    [save],
  );

  const onResize = useCallback(
    (info: EventResizeDoneArg) => {
      const record = info.event.extendedProps['record'] as EventRecord;
      const changes = {
        start_date: shift(record.start_date, info.startDelta),
        end_date: shift(record.end_date, info.endDelta),
      };
      void save(info, changes, 'cal.events.calendar.resized');
    },
    [save],
  );

  return { onDrop, onResize };
}
