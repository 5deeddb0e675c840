import { useMemo } from 'react';
import {
  AutocompleteInput,
  BooleanInput,
  Loading,
  maxLength,
  minValue,
  NumberInput,
  RadioButtonGroupInput,
  SelectInput,
  regex,
  required,
  ResourceContextProvider,
  SaveButton,
  SimpleForm,
  TextInput,
  Title,
  Toolbar,
  useNotify,
  useTranslate,
  HttpError,
} from 'react-admin';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import { ADMIN_API, api } from '../api/http';
import { changedFields } from '../api/dataProvider';
import { useApiData } from '../users/useApiData';

interface Settings {
  timezone: string;
  geoloc: boolean;
  geoloc_radius: number;
  geoloc_unit: 'mi' | 'km';
  site_url: string | null;
  submissions: 'off' | 'users' | 'anyone';
  submission_confirm: boolean;
  spam_block_days: number;
}

/** GET /cal/admin/v1/mail: whether the service can send mail, and its outbox. */
interface MailStatus {
  enabled: boolean;
  from: string | null;
  outbox: { pending: number; sent: number; failed: number };
}

const PATH = `${ADMIN_API}/settings`;

/** The browser's IANA zones (with UTC, which some engines list apart), as the API checks them. */
function zoneChoices(current: string | undefined) {
  const zones = new Set<string>(Intl.supportedValuesOf('timeZone'));
  zones.add('UTC');
  if (current) zones.add(current);
  return [...zones].sort().map((zone) => ({ id: zone, name: zone.replace(/_/g, ' ') }));
}

/** Mail is configured by the environment, not here: the line says which, and how the outbox stands. */
function MailLine() {
  const translate = useTranslate();
  const { data } = useApiData<MailStatus>(`${ADMIN_API}/mail`);
  if (!data) return null;
  const outbox = translate('cal.settings.mail_outbox', data.outbox);
  return (
    <CardContent sx={{ pb: 0 }}>
      <Alert severity={data.enabled ? 'info' : 'warning'} role="status" sx={{ overflowWrap: 'anywhere' }}>
        {data.enabled
          ? translate('cal.settings.mail_on', { from: data.from ?? '' })
          : translate('cal.settings.mail_off')}{' '}
        {outbox}
      </Alert>
    </CardContent>
  );
}

/** The site settings, every field of GET|PATCH /settings; Save sends what changed. */
export default function SettingsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { data, reload } = useApiData<Settings>(PATH);
  const zones = useMemo(() => zoneChoices(data?.timezone), [data?.timezone]);

  const save = async (values: Partial<Settings>) => {
    const body = changedFields(values as Record<string, unknown>, data as unknown as Record<string, unknown>);
    try {
      await api(PATH, { method: 'PATCH', body });
      notify('cal.settings.saved', { type: 'success' });
      reload();
      return undefined;
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
      return e instanceof HttpError ? (e.body as { errors?: Record<string, string> })?.errors : undefined;
    }
  };

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('cal.settings.title')} />
      <MailLine />
      {data ? (
        <ResourceContextProvider value="settings">
          <SimpleForm
            record={data as Settings & { id: string }}
            onSubmit={save}
            toolbar={
              <Toolbar>
                <SaveButton />
              </Toolbar>
            }
          >
            <AutocompleteInput
              source="timezone"
              choices={zones}
              validate={required()}
              helperText="cal.settings.timezone_help"
              fullWidth
            />
            <BooleanInput source="geoloc" helperText="cal.settings.geoloc_help" />
            <NumberInput
              source="geoloc_radius"
              validate={[required(), minValue(0.001)]}
              min={0}
              step="any"
              helperText="cal.settings.radius_help"
            />
            <RadioButtonGroupInput
              source="geoloc_unit"
              choices={[
                { id: 'mi', name: 'cal.settings.miles' },
                { id: 'km', name: 'cal.settings.kilometres' },
              ]}
            />
            <TextInput
              source="site_url"
              type="url"
              fullWidth
              validate={[maxLength(2048), regex(/^https?:\/\/\S+$/i, 'cal.settings.url_invalid')]}
              helperText="cal.settings.site_url_help"
            />
            <SelectInput
              source="submissions"
              choices={[
                { id: 'off', name: 'cal.settings.submissions_off' },
                { id: 'users', name: 'cal.settings.submissions_users' },
                { id: 'anyone', name: 'cal.settings.submissions_anyone' },
              ]}
              validate={required()}
              helperText="cal.settings.submissions_help"
            />
            <BooleanInput source="submission_confirm" helperText="cal.settings.submission_confirm_help" />
            <NumberInput
              source="spam_block_days"
              validate={[required(), minValue(0)]}
              min={0}
              step={1}
              helperText="cal.settings.spam_block_days_help"
            />
          </SimpleForm>
        </ResourceContextProvider>
      ) : (
        <Loading />
      )}
    </Card>
  );
}
