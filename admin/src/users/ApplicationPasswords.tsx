import { useState } from 'react';
import { Confirm, useLocaleState, useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import AddIcon from '@mui/icons-material/Add';
import { ADMIN_API, api } from '../api/http';
import { formatUtc } from './dates';
import { ShownOnceDialog } from './ShownOnceDialog';
import { useApiData } from './useApiData';

interface PasswordInfo {
  id: number;
  name: string;
  created: string;
}

/** A user's application passwords (for programs): listed by name, added (shown once), revoked. */
export function ApplicationPasswords({ userId }: { userId: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const path = `${ADMIN_API}/users/${userId}/application-passwords`;
  const { data, loading, reload } = useApiData<PasswordInfo[]>(path);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<PasswordInfo | null>(null);

  const add = async () => {
    setBusy(true);
    try {
      const { json } = await api<{ application_password: string }>(path, { method: 'POST', body: { name } });
      setSecret(json.application_password);
      setName('');
      reload();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    try {
      await api(`${path}/${revoking.id}`, { method: 'DELETE' });
      notify('cal.users.revoked', { type: 'info', messageArgs: { name: revoking.name } });
      reload();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setRevoking(null);
    }
  };

  const label = (item: PasswordInfo) => item.name || translate('cal.users.unnamed');
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.users.application_passwords')} slotProps={{ title: { component: 'h2' } }} />
      <CardContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('cal.users.application_passwords_help')}
        </Typography>
        {!loading && data?.length === 0 && <Typography>{translate('cal.users.no_application_passwords')}</Typography>}
        <List dense aria-label={translate('cal.users.application_passwords')}>
          {data?.map((item) => (
            <ListItem
              key={item.id}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={translate('cal.users.revoke_named', { name: label(item) })}
                  onClick={() => setRevoking(item)}
                >
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemText
                primary={label(item)}
                secondary={translate('cal.users.created_on', { date: formatUtc(item.created, locale) })}
              />
            </ListItem>
          ))}
        </List>
        <Stack
          component="form"
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ mt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <TextField
            label={translate('cal.users.application_password_name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            size="small"
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <Button type="submit" variant="outlined" startIcon={<AddIcon />} disabled={busy}>
            {translate('cal.users.add_application_password')}
          </Button>
        </Stack>
      </CardContent>
      <ShownOnceDialog
        title={translate('cal.users.new_application_password')}
        label={translate('cal.users.application_password')}
        secret={secret}
        onClose={() => setSecret(null)}
      />
      <Confirm
        isOpen={revoking !== null}
        title="cal.users.revoke_title"
        content="cal.users.revoke_confirm"
        translateOptions={{ name: revoking ? label(revoking) : '' }}
        confirm="cal.users.revoke"
        onConfirm={() => void revoke()}
        onClose={() => setRevoking(null)}
      />
    </Card>
  );
}
