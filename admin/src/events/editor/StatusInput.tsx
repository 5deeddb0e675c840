import { useWatch } from 'react-hook-form';
import { DateTimeInput, required, SelectInput, usePermissions } from 'react-admin';
import { Box } from '@mui/material';
import { can } from '../../api/permissions';
import type { Role } from '../../api/session';

const toLocalInput = (value: unknown) => (typeof value === 'string' ? value.slice(0, 16).replace(' ', 'T') : '');
const fromLocalInput = (value: string) => (value ? `${value.replace('T', ' ')}:00`.slice(0, 19) : value);

/** The statuses a role may choose: contributors draft or submit for review; publishing needs publish_posts. */
export function statusChoices(role: Role | undefined, current?: string) {
  const choices = can(role, 'publish_posts') ? ['publish', 'future', 'pending', 'draft'] : ['pending', 'draft'];
  if (current && !choices.includes(current)) choices.push(current);
  return choices.map((id) => ({ id, name: `cal.editor.status.${id}` }));
}

export function defaultStatus(role: Role | undefined): string {
  return can(role, 'publish_posts') ? 'publish' : 'pending';
}

export function StatusInput({ current }: { current?: string }) {
  const { permissions } = usePermissions<Role>();
  const status = useWatch({ name: 'status' }) as string;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: '100%' }}>
      <SelectInput
        source="status"
        label="cal.editor.fields.status"
        choices={statusChoices(permissions, current)}
        validate={required()}
        sx={{ minWidth: { xs: '100%', sm: 240 } }}
      />
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
