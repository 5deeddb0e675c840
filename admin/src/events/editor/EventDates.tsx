import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, BooleanInput, DateInput, DateTimeInput, useTranslate } from 'react-admin';
import { Box } from '@mui/material';
import { addMinutes, floating } from './event-shape';
import { zoneNames } from './zones';

/** "Y-m-d H:i:s" ↔ the datetime-local input's "YYYY-MM-DDTHH:mm": the wall time, never the browser's zone. */
const toLocalInput = (value: unknown) => (typeof value === 'string' ? value.slice(0, 16).replace(' ', 'T') : '');
const fromLocalInput = (value: string) => (value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : value);
const toDateInput = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : '');
const startOfDay = (value: string) => (value ? `${value} 00:00:00` : value);
const endOfDay = (value: string) => (value ? `${value} 23:59:59` : value);

const ZONES = zoneNames().map((name) => ({ id: name, name: name.replace(/_/g, ' ') }));

/** End after start, on the wall times of one zone. */
export function endAfterStart(end: unknown, values: { start_date?: string }) {
  const a = floating(values.start_date);
  const b = floating(typeof end === 'string' ? end : undefined);
  return a && b && b < a ? 'cal.editor.errors.end_before_start' : undefined;
}

/**
 * Start, end, their zone and all-day. Moving the start keeps the event's length, as calendar
 * applications do; all-day shows dates only and stores the whole days.
 */
export function EventDates() {
  const translate = useTranslate();
  const { setValue, getValues } = useFormContext();
  const allDay = useWatch({ name: 'all_day' }) as boolean;

  /** Called before the start's new value is stored: the previous start is still in the form. */
  const keepLength = (parse: (raw: string) => string) => (event: { target?: { value?: string } }) => {
    const raw = event.target?.value;
    if (!raw) return;
    const next = parse(raw);
    const before = floating(getValues('start_date') as string);
    const after = floating(next);
    const endDate = floating(getValues('end_date') as string);
    if (!before || !after || !endDate || before.getTime() === after.getTime()) return;
    const length = Math.max(0, (endDate.getTime() - before.getTime()) / 60_000);
    setValue('end_date', allDay ? endOfDay(addMinutes(next, length).slice(0, 10)) : addMinutes(next, length), {
      shouldDirty: true,
    });
  };

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', width: '100%' }}>
      {allDay ? (
        <>
          <DateInput
            source="start_date"
            label="cal.editor.fields.start"
            format={toDateInput}
            parse={startOfDay}
            onChange={keepLength(startOfDay)}
          />
          <DateInput
            source="end_date"
            label="cal.editor.fields.end"
            format={toDateInput}
            parse={endOfDay}
            validate={endAfterStart}
          />
        </>
      ) : (
        <>
          <DateTimeInput
            source="start_date"
            label="cal.editor.fields.start"
            format={toLocalInput}
            parse={fromLocalInput}
            onChange={keepLength(fromLocalInput)}
          />
          <DateTimeInput
            source="end_date"
            label="cal.editor.fields.end"
            format={toLocalInput}
            parse={fromLocalInput}
            validate={endAfterStart}
          />
        </>
      )}
      <AutocompleteInput
        source="timezone"
        label="cal.editor.fields.timezone"
        choices={ZONES}
        helperText={translate('cal.editor.help.timezone')}
        sx={{ minWidth: { xs: '100%', sm: 280 } }}
        disableClearable
      />
      <BooleanInput
        source="all_day"
        label="cal.editor.fields.all_day"
        onChange={(event: { target: { checked: boolean } }) => {
          const checked = event.target.checked;
          const values = getValues() as { start_date?: string; end_date?: string };
          if (checked) {
            setValue('start_date', startOfDay(toDateInput(values.start_date)), { shouldDirty: true });
            setValue('end_date', endOfDay(toDateInput(values.end_date)), { shouldDirty: true });
          }
        }}
      />
    </Box>
  );
}
