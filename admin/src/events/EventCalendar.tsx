import { useCallback, useMemo, useRef } from 'react';
import { Title, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { Box, Chip, Stack } from '@mui/material';
import FullCalendar from '@fullcalendar/react';
import dayGridPlugin from '@fullcalendar/daygrid';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin, { type DateClickArg } from '@fullcalendar/interaction';
import { useCalendarMoves } from './event-list.calendar';
import type { EventClickArg, EventInput, EventSourceFuncArg } from '@fullcalendar/core';
import frLocale from '@fullcalendar/core/locales/fr';
import itLocale from '@fullcalendar/core/locales/it';
import esLocale from '@fullcalendar/core/locales/es';
import deLocale from '@fullcalendar/core/locales/de';
import { currentUser } from '../api/session';
import {
  CALENDAR_STATUSES,
  STATUS_COLOURS,
  dateToWall,
  mayEdit,
  wallToDate,
  zoneName,
  type EventRecord,
} from './event-list.format';

/** English is FullCalendar's own; the other four of the admin's languages, and no more, are bundled. */
const LOCALES = [frLocale, itLocale, esLocale, deLocale];

/** The API's largest page, and how many pages of one range the calendar reads at most. */
const PER_PAGE = 50;
const MAX_PAGES = 20;

/**
 * Events that began this many days before the range and still run in it are shown: the API's
 * `start_date` bounds the walk along (lang, start_local), so a window with no lower start bound
 * would read every earlier event.
 */
const LOOKBACK_DAYS = 31;

const day = (date: Date) => date.toISOString().slice(0, 10);
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * 86_400_000);

/**
 * An event as FullCalendar shows it: at its own wall times (the calendar runs in UTC, so nothing
 * is converted to the browser's zone), all-day ones ending the day after their last (exclusive).
 */
function toCalendarEvent(record: EventRecord, editable: boolean): EventInput {
  const allDay = record.all_day === true;
  const start = wallToDate(record.start_date);
  const end = wallToDate(record.end_date);
  return {
    id: String(record.id),
    title: record.title,
    start,
    end: allDay ? addDays(new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), end.getUTCDate())), 1) : end,
    allDay,
    editable,
    backgroundColor: STATUS_COLOURS[record.status],
    borderColor: STATUS_COLOURS[record.status],
    textColor: '#fff',
    extendedProps: { record },
  };
}

/**
 * Month and week views of every event the user may edit, drafts included, coloured by status.
 * Only the visible range is read (GET /events with its dates and statuses, page by page).
 * Dragging moves an event (start and end by the same step, in its own zone), stretching changes
 * its end: each a PATCH through the data provider, after reading the event for its If-Match tag;
 * when someone else saved it meanwhile (412, or a newer version than the one shown) or the user
 * may not change it (403), the event goes back and the notification says why.
 */
export default function EventCalendar() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const dataProvider = useDataProvider();
  const [locale = 'en'] = useLocaleState();
  const calendar = useRef<FullCalendar>(null);
  const me = currentUser();
  const role = me?.role;

  const load = useCallback(
    async (range: EventSourceFuncArg): Promise<EventInput[]> => {
      const lastDay = addDays(range.end, -1);
      const filter: Record<string, unknown> = {
        start_date: day(addDays(range.start, -LOOKBACK_DAYS)),
        starts_before: day(lastDay),
        ends_after: day(addDays(range.start, -1)),
        status: CALENDAR_STATUSES,
        context: 'edit',
        // Contributors and authors edit their own events only; editors everyone's.
        ...(role === 'contributor' || role === 'author' ? { author: me?.id } : {}),
      };
      const page = (n: number) =>
        dataProvider.getList<EventRecord>('events', {
          pagination: { page: n, perPage: PER_PAGE },
          sort: { field: 'start_date', order: 'ASC' },
          filter,
        });
      const first = await page(1);
      const pages = Math.min(Math.ceil((first.total ?? 0) / PER_PAGE), MAX_PAGES);
      const rest = await Promise.all(Array.from({ length: Math.max(pages - 1, 0) }, (_, i) => page(i + 2)));
      if ((first.total ?? 0) > MAX_PAGES * PER_PAGE)
        notify('cal.events.calendar.more', { type: 'warning', messageArgs: { count: MAX_PAGES * PER_PAGE } });
      return [first, ...rest].flatMap((answer) =>
        answer.data.map((record) => toCalendarEvent(record, mayEdit(me, role, record))),
      );
    },
    [dataProvider, me, role, notify],
  );

  const events = useCallback(
    (range: EventSourceFuncArg, success: (events: EventInput[]) => void, failure: (error: Error) => void) => {
      load(range).then(success, (error: Error) => {
        notify('cal.events.calendar.loading_failed', { type: 'error', messageArgs: { message: error.message } });
        failure(error);
      });
    },
    [load, notify],
  );

  const { onDrop, onResize } = useCalendarMoves();

  const onEventClick = useCallback(
    (info: EventClickArg) => {
      info.jsEvent.preventDefault();
      navigate(`/events/${info.event.id}`);
    },
    [navigate],
  );

  /** A click on a day opens a new event there, at ten in the morning in month view, at the clicked time in week view. */
  const onDateClick = useCallback(
    (info: DateClickArg) => {
      const start = info.allDay ? new Date(info.date.getTime() + 10 * 3_600_000) : info.date;
      const record = { start_date: dateToWall(start), end_date: dateToWall(new Date(start.getTime() + 3_600_000)) };
      navigate(`/events/create?source=${encodeURIComponent(JSON.stringify(record))}`);
    },
    [navigate],
  );

  const legend = useMemo(
    () =>
      CALENDAR_STATUSES.map((status) => (
        <Chip
          key={status}
          size="small"
          label={translate(`cal.events.status.${status}`)}
          sx={{ bgcolor: STATUS_COLOURS[status], color: '#fff' }}
        />
      )),
    [translate],
  );

  return (
    <Box sx={{ mt: 1, maxWidth: '100%', overflowX: 'hidden' }}>
      <Title title="cal.events.calendar.title" />
      <Stack
        direction="row"
        useFlexGap
        spacing={1}
        aria-label={translate('cal.events.calendar.legend')}
        role="group"
        sx={{ flexWrap: 'wrap', mb: 1 }}
      >
        {legend}
      </Stack>
      <Box
        sx={{
          bgcolor: 'background.paper',
          p: { xs: 0.5, sm: 2 },
          // A phone's narrow columns: the toolbar wraps instead of pushing the page sideways.
          '& .fc .fc-toolbar': { flexWrap: 'wrap', gap: 1 },
          '& .fc .fc-toolbar-title': { fontSize: { xs: '1.1rem', sm: '1.5rem' } },
          '& .fc .fc-button:focus-visible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
          '& .fc a:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' },
          // FullCalendar fades other months' days and the disabled "today" below 4.5:1 contrast.
          '& .fc .fc-day-other .fc-daygrid-day-top': { opacity: 1 },
          '& .fc .fc-day-other .fc-daygrid-day-number': { color: 'text.secondary' },
          '& .fc .fc-button-primary:disabled': {
            opacity: 1,
            bgcolor: '#4b5563',
            borderColor: '#4b5563',
            color: '#fff',
          },
          '& .fc .fc-button .fc-nav-arrow': { fontSize: '1.25rem', lineHeight: 1 },
        }}
      >
        <FullCalendar
          ref={calendar}
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          initialView="dayGridMonth"
          headerToolbar={{ left: 'prev,next today', center: 'title', right: 'dayGridMonth,timeGridWeek' }}
          // Text arrows, named by buttonHints: FullCalendar's icon font spans are images without a name.
          buttonIcons={false}
          buttonText={{
            prev: '‹',
            next: '›',
            today: translate('cal.events.calendar.today'),
            month: translate('cal.events.calendar.month'),
            week: translate('cal.events.calendar.week'),
          }}
          locales={LOCALES}
          locale={locale}
          timeZone="UTC"
          height="auto"
          dayMaxEventRows={4}
          events={events}
          eventAllow={(span, moving) => moving === null || span.allDay === moving.allDay}
          eventDrop={onDrop}
          eventResize={onResize}
          eventClick={onEventClick}
          dateClick={onDateClick}
          viewDidMount={(arg) => {
            // Text arrows need a name of their own: FullCalendar only gives them a title.
            const root = arg.el.closest('.fc');
            root
              ?.querySelector('.fc-prev-button')
              ?.setAttribute('aria-label', translate('cal.events.calendar.previous'));
            root?.querySelector('.fc-next-button')?.setAttribute('aria-label', translate('cal.events.calendar.next'));
          }}
          eventDidMount={(arg) => {
            const record = arg.event.extendedProps['record'] as EventRecord;
            arg.el.setAttribute('title', `${record.title} · ${zoneName(record)}`);
          }}
        />
      </Box>
    </Box>
  );
}
