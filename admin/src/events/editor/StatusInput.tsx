import { useWatch } from 'react-hook-form';
import { DateTimeInput, required, useInput, usePermissions, useTranslate } from 'react-admin';
import { Box, TextField } from '@mui/material';
import { can } from '../../api/permissions';
import type { Role } from '../../api/session';

const toLocalInput = (value: unknown) => (typeof value === 'string' ? value.slice(0, 16).replace(' ', 'T') : '');
const fromLocalInput = (value: string) => (value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : value);

/** The statuses a role may choose: contributors draft or submit for review; publishing needs publish_posts. */
export function statusChoices(role: Role | undefined, current?: string): string[] {
  const choices = can(role, 'publish_posts') ? ['publish', 'future', 'pending', 'draft'] : ['pending', 'draft'];
  if (current && !choices.includes(current)) choices.push(current);
  return choices;
}

export function defaultStatus(role: Role | undefined): string {
  return can(role, 'publish_posts') ? 'publish' : 'pending';
}

/**
 * The status as the browser's own select: named "Status" and nothing else (a menu button's name
 * would include the value shown), opened by the keyboard and by a phone's native picker.
 */
function StatusSelect({ current }: { current?: string }) {
  const translate = useTranslate();
  const { permissions } = usePermissions<Role>();
  const { field, fieldState, id } = useInput({ source: 'status', validate: required() });
  return (
    <TextField
      {...field}
      id={id}
      select
      size="small"
      label={translate('cal.editor.fields.status')}
      error={fieldState.invalid}
      helperText={fieldState.error?.message ? translate(fieldState.error.message) : ' '}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: { xs: '100%', sm: 240 } }}
    >
      {statusChoices(permissions, current).map((status) => (
        <option key={status} value={status}>
          {translate(`cal.editor.status.${status}`)}
        </option>
      ))}
    </TextField>
  );
}

export function StatusInput({ current }: { current?: string }) {
  const status = useWatch({ name: 'status' }) as string;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: '100%' }}>
      <StatusSelect current={current} />
      {status === 'future' && (
        <DateTimeInput
          source="date"
          label="cal.editor.fields.publish_on"
          format={toLocalInput}
          parse={fromLocalInput}
          validate={required()}
          helperText="cal.editor.help.publish_on"
        />
      )}
    </Box>
  );
}
