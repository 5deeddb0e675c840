import { useState } from 'react';
import {
  Confirm,
  Form,
  Loading,
  maxLength,
  minLength,
  PasswordInput,
  required,
  SaveButton,
  SelectInput,
  Title,
  useLocaleState,
  useLogout,
  useNotify,
  useTranslate,
  HttpError,
} from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { ADMIN_API, api } from '../api/http';
import { can } from '../api/permissions';
import { signOut, type Role } from '../api/session';
import { formatUtc } from './dates';
import { useApiData } from './useApiData';

interface Me {
  id: number;
  username: string;
  email: string;
  role: string;
  registered: string;
  /** Mail about the public form's submissions (moderators only receive it). */
  submission_mail?: SubmissionMail;
}

type SubmissionMail = 'none' | 'each' | 'digest';

interface PasswordChange {
  current_password: string;
  password: string;
  confirm: string;
}

function WhoIAm({ me }: { me: Me }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const rows: [string, string][] = [
    [translate('resources.users.fields.username'), me.username],
    [translate('resources.users.fields.role'), translate(`cal.users.roles.${me.role}`)],
    [translate('resources.users.fields.email'), me.email || '—'],
    [translate('resources.users.fields.registered'), formatUtc(me.registered, locale)],
  ];
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.profile.who')} slotProps={{ title: { component: 'h2' } }} />
      <CardContent>
        <Stack component="dl" spacing={1} sx={{ m: 0 }}>
          {rows.map(([label, value]) => (
            <Stack key={label} direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              <Typography component="dt" sx={{ fontWeight: 'bold' }}>
                {label}:
              </Typography>
              <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Stack>
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The current and the new login password; the service checks the current one and keeps this session. */
function ChangePassword() {
  const translate = useTranslate();
  const notify = useNotify();
  const [formKey, setFormKey] = useState(0);
  const submit = async (values: Partial<PasswordChange>) => {
    if (values.password !== values.confirm) return { confirm: 'cal.profile.mismatch' };
    try {
      await api(`${ADMIN_API}/users/me`, {
        method: 'PATCH',
        body: { current_password: values.current_password, password: values.password },
      });
      notify('cal.profile.password_changed', { type: 'success' });
      setFormKey((k) => k + 1);
      return undefined;
    } catch (e) {
      const errors = e instanceof HttpError ? (e.body as { errors?: Record<string, string> })?.errors : undefined;
      notify((e as Error).message, { type: 'error' });
      return errors;
    }
  };
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.profile.change_password')} slotProps={{ title: { component: 'h2' } }} />
      <Form key={formKey} onSubmit={submit}>
        <CardContent>
          <PasswordInput
            source="current_password"
            label="cal.profile.current_password"
            validate={[required(), maxLength(1024)]}
            autoComplete="current-password"
            fullWidth
          />
          <PasswordInput
            source="password"
            label="cal.users.new_password"
            validate={[required(), minLength(8), maxLength(1024)]}
            autoComplete="new-password"
            fullWidth
          />
          <PasswordInput
            source="confirm"
            label="cal.profile.confirm_password"
            validate={required()}
            autoComplete="new-password"
            fullWidth
          />
        </CardContent>
        <CardActions>
          <SaveButton label="cal.profile.change_password" alwaysEnable />
        </CardActions>
      </Form>
    </Card>
  );
}

/** A moderator's choice of mail about new submissions: none, one each, or a daily digest. */
function SubmissionMails({ me }: { me: Me }) {
  const translate = useTranslate();
  const notify = useNotify();
  const submit = async (values: { submission_mail?: SubmissionMail }) => {
    try {
      await api(`${ADMIN_API}/users/me`, { method: 'PATCH', body: { submission_mail: values.submission_mail } });
      notify('cal.profile.submission_mail_saved', { type: 'success' });
      return undefined;
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
      return e instanceof HttpError ? (e.body as { errors?: Record<string, string> })?.errors : undefined;
    }
  };
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.profile.submission_mail')} slotProps={{ title: { component: 'h2' } }} />
      <Form record={{ submission_mail: me.submission_mail ?? 'none' }} onSubmit={submit}>
        <CardContent>
          <SelectInput
            source="submission_mail"
            label="cal.profile.submission_mail"
            choices={(['none', 'each', 'digest'] as const).map((id) => ({
              id,
              name: `cal.profile.submission_mail_choices.${id}`,
            }))}
            validate={required()}
            helperText="cal.profile.submission_mail_help"
            fullWidth
          />
        </CardContent>
        <CardActions>
          <SaveButton />
        </CardActions>
      </Form>
    </Card>
  );
}

function SignOutEverywhere() {
  const translate = useTranslate();
  const logout = useLogout();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const endAll = async () => {
    setConfirming(false);
    try {
      await signOut(true);
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
    void logout();
  };
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.users.sign_out_everywhere')} slotProps={{ title: { component: 'h2' } }} />
      <CardContent>
        <Typography>{translate('cal.profile.sign_out_everywhere_help')}</Typography>
      </CardContent>
      <CardActions>
        <Button color="error" sx={{ color: '#a50e0e' }} startIcon={<LogoutIcon />} onClick={() => setConfirming(true)}>
          {translate('cal.users.sign_out_everywhere')}
        </Button>
      </CardActions>
      <Confirm
        isOpen={confirming}
        title="cal.users.sign_out_everywhere"
        content="cal.profile.sign_out_everywhere_confirm"
        onConfirm={() => void endAll()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}

/** Everyone's own page: who I am, my login password, and ending every session of mine. */
export default function ProfilePage() {
  const translate = useTranslate();
  const { data: me } = useApiData<Me>(`${ADMIN_API}/users/me`);
  return (
    <Stack spacing={2} sx={{ mt: 2, maxWidth: 640 }}>
      <Title title={translate('cal.profile.title')} />
      {me ? <WhoIAm me={me} /> : <Loading />}
      {me && can(me.role as Role, 'edit_others_posts') && <SubmissionMails me={me} />}
      <ChangePassword />
      <SignOutEverywhere />
    </Stack>
  );
}
