import { useMediaQuery, type Theme } from '@mui/material';
import Chip from '@mui/material/Chip';
import {
  BooleanField,
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  SimpleList,
  TextField,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { formatUtc } from '../users/dates';

interface WebhookRecord {
  id: number;
  url: string;
  events: string[];
  languages: string[];
  active: boolean;
  status: string;
  created_utc: string;
}

function StatusChip({ record }: { record: WebhookRecord }) {
  const translate = useTranslate();
  const failing = record.status === 'failing';
  return (
    <Chip
      size="small"
      color={failing ? 'error' : record.active ? 'success' : 'default'}
      label={translate(`cal.webhooks.status.${failing ? 'failing' : record.active ? 'active' : 'paused'}`)}
    />
  );
}

/** Subscriptions: where they post, what, and whether deliveries are failing. */
export default function WebhookList() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const all = translate('cal.webhooks.all_languages');
  return (
    <List
      sort={{ field: 'id', order: 'ASC' }}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
    >
      {small ? (
        <SimpleList<WebhookRecord>
          primaryText={(record) => record.url}
          secondaryText={(record) => record.events.join(', ')}
          tertiaryText={(record) =>
            translate(
              `cal.webhooks.status.${record.status === 'failing' ? 'failing' : record.active ? 'active' : 'paused'}`,
            )
          }
          linkType="edit"
          sx={{ '& .MuiListItemText-primary': { overflowWrap: 'anywhere' } }}
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="url" sx={{ overflowWrap: 'anywhere' }} />
          <FunctionField<WebhookRecord> source="events" sortable={false} render={(r) => r.events.join(', ')} />
          <FunctionField<WebhookRecord>
            source="languages"
            sortable={false}
            render={(r) => (r.languages.length ? r.languages.join(', ') : all)}
          />
          <BooleanField source="active" />
          <FunctionField<WebhookRecord> source="status" render={(r) => <StatusChip record={r} />} />
          <FunctionField<WebhookRecord> source="created_utc" render={(r) => formatUtc(r.created_utc, locale)} />
        </Datagrid>
      )}
    </List>
  );
}
