import { useState } from 'react';
import {
  DeleteWithConfirmButton,
  Edit,
  SaveButton,
  Toolbar,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { ADMIN_API, api } from '../api/http';
import { formatUtc } from '../users/dates';
import { WebhookForm } from './WebhookForm';
import { WebhookDeliveries } from './WebhookDeliveries';

interface WebhookRecord {
  id: number;
  url: string;
  status: string;
  active: boolean;
  failing_since: string | null;
}

interface PingResult {
  delivered: boolean;
  status: number | null;
  error: string | null;
  latency_ms: number;
}

/** "Send a test": a signed ping now, and what the receiver answered. */
function SendTest() {
  const record = useRecordContext<WebhookRecord>();
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const [result, setResult] = useState<PingResult | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const send = async () => {
    setBusy(true);
    setResult(null);
    try {
      setResult((await api<PingResult>(`${ADMIN_API}/webhooks/${record.id}/test`, { method: 'POST' })).json);
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const outcome = result && [
    result.status !== null ? `HTTP ${result.status}` : '',
    `${result.latency_ms} ms`,
    result.error ?? '',
  ];
  return (
    <Card variant="outlined">
      <CardHeader title={translate('cal.webhooks.test')} slotProps={{ title: { component: 'h2' } }} />
      <CardContent>
        {record.status === 'failing' && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {translate('cal.webhooks.failing_since', { date: formatUtc(record.failing_since, locale) })}
          </Alert>
        )}
        <Typography>{translate('cal.webhooks.test_help')}</Typography>
        <div role="status" aria-live="polite">
          {result && (
            <Alert severity={result.delivered ? 'success' : 'error'} sx={{ mt: 2, overflowWrap: 'anywhere' }}>
              {translate(result.delivered ? 'cal.webhooks.test_delivered' : 'cal.webhooks.test_failed')}{' '}
              {outcome!.filter(Boolean).join(' · ')}
            </Alert>
          )}
        </div>
      </CardContent>
      <CardActions>
        <Button startIcon={<SendIcon />} onClick={() => void send()} disabled={busy} variant="outlined">
          {translate('cal.webhooks.send_test')}
        </Button>
      </CardActions>
    </Card>
  );
}

function WebhookPanels() {
  const record = useRecordContext<WebhookRecord>();
  if (!record) return null;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <SendTest />
      <WebhookDeliveries webhookId={record.id} />
    </Stack>
  );
}

function WebhookToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between' }}>
      <SaveButton />
      <DeleteWithConfirmButton sx={{ color: '#a50e0e' }} />
    </Toolbar>
  );
}

/** A subscription's fields, a test ping, and its delivery log. */
export default function WebhookEdit() {
  return (
    <Edit mutationMode="pessimistic">
      <WebhookForm toolbar={<WebhookToolbar />} />
      <WebhookPanels />
    </Edit>
  );
}
