import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { useLocaleState, useTranslate } from 'react-admin';
import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import {
  nextOccurrences,
  nthOf,
  weekdayOf,
  WEEKDAYS,
  type EndKind,
  type Preset,
  type Weekday,
} from './editor/rrule-presets';
import { floating, nowFloating, type RecurrenceValue } from './editor/event-shape';

/** A weekday's name in the reader's language (1 January 2024 was a Monday). */
function weekdayName(day: Weekday, locale: string, width: 'long' | 'short' = 'long'): string {
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day)));
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(date);
}

/** The rule in words, in the reader's language. */
export function useRuleSummary() {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  return (preset: Preset, start: string, serverSummary?: string): string => {
    const date = floating(start);
    if (preset.frequency === 'none') return translate('cal.editor.recurrence.summary.none');
    if (preset.frequency === 'custom' || !date) return serverSummary ?? '';
    const n = { smart_count: preset.interval };
    let text: string;
    switch (preset.frequency) {
      case 'daily':
        text = translate('cal.editor.recurrence.summary.daily', n);
        break;
      case 'weekly': {
        const list = new Intl.ListFormat(locale, { type: 'conjunction' });
        const days = WEEKDAYS.filter((d) => preset.weekdays.includes(d)).map((d) => weekdayName(d, locale));
        text = translate('cal.editor.recurrence.summary.weekly', { ...n, days: list.format(days) });
        break;
      }
      case 'monthly':
        text =
          preset.monthlyBy === 'weekday'
            ? translate('cal.editor.recurrence.summary.monthly_weekday', {
                ...n,
                nth: translate(`cal.editor.recurrence.nth.${nthOf(start) === -1 ? 'last' : nthOf(start)}`),
                weekday: weekdayName(weekdayOf(start), locale),
              })
            : translate('cal.editor.recurrence.summary.monthly_day', { ...n, day: date.getUTCDate() });
        break;
      default:
        text = translate('cal.editor.recurrence.summary.yearly', {
          ...n,
          date: new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(date),
        });
    }
    if (preset.end === 'count') text += translate('cal.editor.recurrence.summary.count', { smart_count: preset.count });
    if (preset.end === 'until' && preset.until) {
      const until = floating(`${preset.until} 00:00:00`);
      if (until)
        text += translate('cal.editor.recurrence.summary.until', {
          date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(until),
        });
    }
    return text;
  };
}

export interface PartProps {
  preset: Preset;
  set: <K extends keyof Preset>(key: K, value: Preset[K]) => void;
}

/** Weekly: the days of the week it falls on (at least one). */
export function WeekdaysField({ preset, set }: PartProps) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  return (
    <FormControl component="fieldset" sx={{ mt: 2 }}>
      <FormLabel component="legend">{translate('cal.editor.recurrence.on_days')}</FormLabel>
      <FormGroup row>
        {WEEKDAYS.map((day) => (
          <FormControlLabel
            key={day}
            control={
              <Checkbox
                checked={preset.weekdays.includes(day)}
                onChange={(event) =>
                  set(
                    'weekdays',
                    event.target.checked
                      ? [...preset.weekdays, day]
                      : preset.weekdays.length > 1
                        ? preset.weekdays.filter((d) => d !== day)
                        : preset.weekdays,
                  )
                }
              />
            }
            label={weekdayName(day, locale, 'short')}
          />
        ))}
      </FormGroup>
    </FormControl>
  );
}

/** Monthly: on the start's day of the month, or on its nth weekday. */
export function MonthlyField({ preset, set }: PartProps) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const start = useWatch({ name: 'start_date' }) as string;
  return (
    <FormControl component="fieldset" sx={{ mt: 2 }}>
      <FormLabel component="legend">{translate('cal.editor.recurrence.monthly_by')}</FormLabel>
      <RadioGroup row value={preset.monthlyBy} onChange={(event) => set('monthlyBy', event.target.value as never)}>
        <FormControlLabel
          value="day"
          control={<Radio />}
          label={translate('cal.editor.recurrence.by_day', { day: floating(start)?.getUTCDate() ?? '' })}
        />
        <FormControlLabel
          value="weekday"
          control={<Radio />}
          label={translate('cal.editor.recurrence.by_weekday', {
            nth: translate(`cal.editor.recurrence.nth.${nthOf(start) === -1 ? 'last' : nthOf(start)}`),
            weekday: weekdayName(weekdayOf(start), locale),
          })}
        />
      </RadioGroup>
    </FormControl>
  );
}

/** The series' end: never, on a date, or after a number of times. */
export function EndField({ preset, set }: PartProps) {
  const translate = useTranslate();
  return (
    <FormControl component="fieldset" sx={{ mt: 2, display: 'block' }}>
      <FormLabel component="legend">{translate('cal.editor.recurrence.ends')}</FormLabel>
      <RadioGroup value={preset.end} onChange={(event) => set('end', event.target.value as EndKind)}>
        <FormControlLabel value="never" control={<Radio />} label={translate('cal.editor.recurrence.end.never')} />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <FormControlLabel value="until" control={<Radio />} label={translate('cal.editor.recurrence.end.until')} />
          {preset.end === 'until' && (
            <TextField
              size="small"
              type="date"
              label={translate('cal.editor.recurrence.until_date')}
              value={preset.until}
              onChange={(event) => set('until', event.target.value)}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          )}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <FormControlLabel value="count" control={<Radio />} label={translate('cal.editor.recurrence.end.count')} />
          {preset.end === 'count' && (
            <TextField
              size="small"
              type="number"
              label={translate('cal.editor.recurrence.occurrences')}
              value={preset.count}
              onChange={(event) => set('count', Math.max(1, Math.min(1000, Number(event.target.value) || 1)))}
              slotProps={{ htmlInput: { min: 1, max: 1000 } }}
              sx={{ width: 160 }}
            />
          )}
        </Box>
      </RadioGroup>
    </FormControl>
  );
}

/** The rule in words and its next dates, as wall times of the event's zone, before anything is saved. */
export function RecurrencePreview({ preset, serverSummary }: { preset: Preset; serverSummary?: string }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const summarize = useRuleSummary();
  const recurrence = useWatch({ name: 'recurrence' }) as RecurrenceValue | null | undefined;
  const start = useWatch({ name: 'start_date' }) as string;
  const allDay = useWatch({ name: 'all_day' }) as boolean;
  const zone = useWatch({ name: 'timezone' }) as string;
  const rrule = recurrence?.rrule ?? '';
  // The next dates from now on: a series that began long ago shows what is coming, not its first weeks.
  const dates = useMemo(() => (rrule ? nextOccurrences(rrule, start, 5, nowFloating(zone)) : []), [rrule, start, zone]);
  const format = new Intl.DateTimeFormat(locale, {
    dateStyle: 'full',
    ...(allDay ? {} : { timeStyle: 'short' }),
    timeZone: 'UTC',
  });
  return (
    <Box sx={{ mt: 2 }} aria-live="polite">
      <Typography variant="body1" sx={{ fontWeight: 500 }}>
        {summarize(preset, start, serverSummary)}
      </Typography>
      {dates.length > 0 && (
        <>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {translate('cal.editor.recurrence.next_dates', { zone: zone || 'UTC' })}
          </Typography>
          <Box
            component="ol"
            aria-label={translate('cal.editor.recurrence.next_dates', { zone: zone || 'UTC' })}
            sx={{ m: 0, pl: 3, typography: 'body2' }}
          >
            {dates.map((date) => (
              <li key={date.getTime()}>{format.format(date)}</li>
            ))}
          </Box>
        </>
      )}
    </Box>
  );
}
