import { Box, Typography, useMediaQuery, type Theme } from '@mui/material';
import {
  Datagrid,
  FunctionField,
  Pagination,
  ReferenceManyField,
  SimpleList,
  TextField,
  useLocale,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';

interface EventRow extends RaRecord {
  title?: string;
  status?: string;
  start_date?: string;
  utc_start_date?: string;
  timezone?: string;
}

/**
 * An event's start in the reader's locale but in the event's own time zone, named ("12 Dec 2026,
 * 19:00 Europe/Paris"): the instant is the UTC start, so no date arithmetic happens here.
 */
export function eventStart(event: EventRow, locale: string): string {
  const zone = event.timezone ?? '';
  const instant = event.utc_start_date ? new Date(`${event.utc_start_date.replace(' ', 'T')}Z`) : null;
  if (instant && !Number.isNaN(instant.getTime())) {
    try {
      const text = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: zone }).format(
        instant,
      );
      return `${text} ${zone}`;
    } catch {
      // A zone Intl does not know (a bare offset such as "UTC+2"): the wall-clock text as the API gives it.
    }
  }
  return `${event.start_date ?? ''} ${zone}`.trim();
}

/**
 * The record's upcoming events, read as any client would: the events list with `venue=` or
 * `organizer=` and `start_date=now`.
 */
export function UpcomingEvents({ target }: { target: 'venue' | 'organizer' }) {
  const translate = useTranslate();
  const locale = useLocale();
  const record = useRecordContext();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  if (!record) return null;
  const start = (event: EventRow) => eventStart(event, locale);
  const empty = (
    <Typography variant="body2" sx={{ py: 1 }}>
      {translate('cal.linked.no_upcoming_events')}
    </Typography>
  );
  return (
    <Box component="section" aria-labelledby="cal-upcoming-events" sx={{ mt: 3, maxWidth: '100%' }}>
      <Typography id="cal-upcoming-events" variant="h6" component="h2" gutterBottom>
        {translate('cal.linked.upcoming_events')}
      </Typography>
      <ReferenceManyField
        reference="events"
        target={target}
        filter={{ start_date: 'now' }}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10]} />}
        empty={empty}
      >
        {small ? (
          <SimpleList<EventRow> primaryText={(event) => event.title ?? ''} secondaryText={start} rowClick="edit" />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick="edit" empty={empty}>
            <TextField source="title" label="resources.events.fields.title" sortable={false} />
            <FunctionField<EventRow> label="cal.linked.starts" sortable={false} render={start} />
            <FunctionField<EventRow>
              label="cal.linked.status"
              sortable={false}
              render={(event) =>
                translate(`cal.linked.statuses.${event.status ?? 'publish'}`, { _: event.status ?? '' })
              }
            />
          </Datagrid>
        )}
      </ReferenceManyField>
    </Box>
  );
}
