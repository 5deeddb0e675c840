import { useState } from 'react';
import {
  useDataProvider,
  useGetList,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useTranslate,
} from 'react-admin';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import DeleteIcon from '@mui/icons-material/Delete';
import { currentUser } from '../api/session';

interface UserRecord {
  id: number;
  username: string;
}

/** Deleting a user hands their events, venues and organizers to someone else, chosen here (`?reassign=`). */
export function DeleteUserButton() {
  const record = useRecordContext<UserRecord>();
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [heir, setHeir] = useState<number | ''>('');
  const { data: users = [] } = useGetList<UserRecord>(
    'users',
    { pagination: { page: 1, perPage: 1000 }, sort: { field: 'username', order: 'ASC' } },
    { enabled: open },
  );
  if (!record) return null;
  const others = users.filter((user) => user.id !== record.id);
  const chosen = heir === '' ? (currentUser()?.id ?? '') : heir;

  const remove = async () => {
    try {
      await dataProvider.delete('users', {
        id: record.id,
        previousData: record,
        meta: { query: { reassign: chosen === '' ? undefined : chosen } },
      });
      notify('cal.users.deleted', { type: 'info', messageArgs: { name: record.username } });
      setOpen(false);
      refresh();
      redirect('list', 'users');
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
  };

  return (
    <>
      <Button
        color="error"
        sx={{ color: '#a50e0e' }}
        startIcon={<DeleteIcon />}
        onClick={() => setOpen(true)}
        disabled={record.id === currentUser()?.id}
      >
        {translate('cal.users.delete')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="delete-user-title" fullWidth maxWidth="xs">
        <DialogTitle id="delete-user-title">
          {translate('cal.users.delete_title', { name: record.username })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{translate('cal.users.delete_help')}</DialogContentText>
          <TextField
            select
            fullWidth
            label={translate('cal.users.reassign')}
            value={chosen}
            onChange={(event) => setHeir(Number(event.target.value))}
          >
            {others.map((user) => (
              <MenuItem key={user.id} value={user.id}>
                {user.username}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
          <Button color="error" variant="contained" onClick={() => void remove()} disabled={chosen === ''}>
            {translate('ra.action.delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
