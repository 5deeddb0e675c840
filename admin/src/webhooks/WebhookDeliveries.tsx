import { useState } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { ADMIN_API } from '../api/http';
import { formatUtc } from '../users/dates';
import { useApiData } from '../users/useApiData';

interface Delivery {
  id: number;
  event_type: string;
  kind: string;
  record_id: number;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_utc: string;
  created_utc: string;
  delivered_utc: string | null;
}

const PER_PAGE = 20;
const COLORS: Record<string, 'success' | 'error' | 'default'> = { delivered: 'success', failed: 'error' };

/** The delivery log of one subscription, newest first, a page at a time. */
export function WebhookDeliveries({ webhookId }: { webhookId: number }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const [page, setPage] = useState(1);
  const {
    data = [],
    loading,
    reload,
  } = useApiData<Delivery[]>(`${ADMIN_API}/webhooks/${webhookId}/deliveries`, {
    page,
    per_page: PER_PAGE,
  });

  const detail = (d: Delivery) =>
    [
      translate('cal.webhooks.delivery_created', { date: formatUtc(d.created_utc, locale) }),
      d.delivered_utc ? translate('cal.webhooks.delivery_delivered', { date: formatUtc(d.delivered_utc, locale) }) : '',
      d.status === 'pending'
        ? translate('cal.webhooks.delivery_next', { date: formatUtc(d.next_attempt_utc, locale) })
        : '',
      translate('cal.webhooks.delivery_attempts', { smart_count: d.attempts }),
      d.last_status !== null ? `HTTP ${d.last_status}` : '',
      d.last_latency_ms !== null ? `${d.last_latency_ms} ms` : '',
      d.last_error ?? '',
    ]
      .filter(Boolean)
      .join(' · ');

  return (
    <Card variant="outlined">
      <CardHeader
        title={translate('cal.webhooks.deliveries')}
        slotProps={{ title: { component: 'h2' } }}
        action={
          <Button startIcon={<RefreshIcon />} onClick={reload}>
            {translate('ra.action.refresh')}
          </Button>
        }
      />
      <CardContent>
        {!loading && data.length === 0 && <Typography>{translate('cal.webhooks.no_deliveries')}</Typography>}
        <List dense aria-label={translate('cal.webhooks.deliveries')}>
          {data.map((d) => (
            <ListItem key={d.id} sx={{ alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
              <Chip
                size="small"
                color={COLORS[d.status] ?? 'default'}
                label={translate(`cal.webhooks.delivery_status.${d.status}`, { _: d.status })}
              />
              <ListItemText
                primary={`${d.event_type} #${d.record_id}`}
                secondary={detail(d)}
                slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          ))}
        </List>
      </CardContent>
      <CardActions>
        <Button disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
          {translate('ra.navigation.previous')}
        </Button>
        <Button disabled={data.length < PER_PAGE} onClick={() => setPage((p) => p + 1)}>
          {translate('ra.navigation.next')}
        </Button>
      </CardActions>
    </Card>
  );
}
