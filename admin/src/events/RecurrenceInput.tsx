import { useEffect, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslate } from 'react-admin';
import { Box, FormControl, InputLabel, MenuItem, Select, TextField, Typography } from '@mui/material';
import { buildRule, parsePreset, type Frequency, type Preset } from './editor/rrule-presets';
import type { RecurrenceValue } from './editor/event-shape';
import { EndField, MonthlyField, RecurrencePreview, WeekdaysField } from './RecurrenceParts';

const FREQUENCIES: Frequency[] = ['none', 'daily', 'weekly', 'monthly', 'yearly'];

/**
 * The series' rule as presets (every day, week on chosen days, month on a day or on the nth
 * weekday, year) with an end, the rule in words and the next dates, computed here with rrule
 * before anything is saved. A rule the presets cannot show is kept as it is until one is chosen.
 */
export function RecurrenceInput({ serverSummary }: { serverSummary?: string }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const recurrence = useWatch({ name: 'recurrence' }) as RecurrenceValue | null | undefined;
  const start = useWatch({ name: 'start_date' }) as string;
  const rrule = recurrence?.rrule ?? '';
  const [preset, setPreset] = useState<Preset>(() => parsePreset(rrule, start));
  const written = useRef(rrule);
  const reset = useRef(false);

  // The form changed the rule itself (a reload, a reset): show what it holds.
  useEffect(() => {
    if (rrule === written.current) return;
    written.current = rrule;
    reset.current = true;
    setPreset(parsePreset(rrule, start));
  }, [rrule, start]);

  const apply = (next: Preset) => {
    setPreset(next);
    if (next.frequency === 'custom') return;
    const rule = buildRule(next, start);
    written.current = rule ?? '';
    const value = rule ? { rrule: rule, rdates: recurrence?.rdates ?? [], exdates: recurrence?.exdates ?? [] } : null;
    setValue('recurrence', value, { shouldDirty: true });
  };

  // A monthly rule names the start's day: it follows the start the user moves (not a reset's).
  useEffect(() => {
    const fromReset = reset.current;
    reset.current = false;
    if (fromReset || preset.frequency !== 'monthly') return;
    const rule = buildRule(preset, start);
    if (rule && rule !== written.current) {
      written.current = rule;
      setValue('recurrence', { ...recurrence, rrule: rule }, { shouldDirty: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [start]);

  const frequencyId = 'event-recurrence-frequency';
  const set = <K extends keyof Preset>(key: K, value: Preset[K]) => apply({ ...preset, [key]: value });

  return (
    <Box
      component="fieldset"
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, m: 0, width: '100%', minWidth: 0 }}
    >
      <Typography component="legend" variant="subtitle1" sx={{ px: 1 }}>
        {translate('cal.editor.recurrence.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
        <FormControl size="small" sx={{ minWidth: 220 }}>
          <InputLabel id={`${frequencyId}-label`}>{translate('cal.editor.recurrence.repeat')}</InputLabel>
          <Select
            labelId={`${frequencyId}-label`}
            id={frequencyId}
            label={translate('cal.editor.recurrence.repeat')}
            value={preset.frequency}
            onChange={(event) => set('frequency', event.target.value as Frequency)}
          >
            {FREQUENCIES.map((f) => (
              <MenuItem key={f} value={f}>
                {translate(`cal.editor.recurrence.frequency.${f}`)}
              </MenuItem>
            ))}
            {preset.frequency === 'custom' && (
              <MenuItem value="custom">{translate('cal.editor.recurrence.frequency.custom')}</MenuItem>
            )}
          </Select>
        </FormControl>
        {preset.frequency !== 'none' && preset.frequency !== 'custom' && (
          <TextField
            size="small"
            type="number"
            label={translate('cal.editor.recurrence.interval')}
            value={preset.interval}
            onChange={(event) => set('interval', Math.max(1, Math.min(99, Number(event.target.value) || 1)))}
            slotProps={{ htmlInput: { min: 1, max: 99 } }}
            sx={{ width: 140 }}
          />
        )}
      </Box>

      {preset.frequency === 'custom' && (
        <Typography variant="body2" sx={{ mt: 1, overflowWrap: 'anywhere' }}>
          {translate('cal.editor.recurrence.custom_rule', { rule: rrule })}
        </Typography>
      )}

      {preset.frequency === 'weekly' && <WeekdaysField preset={preset} set={set} />}

      {preset.frequency === 'monthly' && <MonthlyField preset={preset} set={set} />}

      {preset.frequency !== 'none' && preset.frequency !== 'custom' && <EndField preset={preset} set={set} />}

      {preset.frequency !== 'none' && <RecurrencePreview preset={preset} serverSummary={serverSummary} />}
    </Box>
  );
}
