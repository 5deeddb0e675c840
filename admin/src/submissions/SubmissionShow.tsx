import { useState, type ReactNode } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  Confirm,
  Form,
  ReferenceArrayInput,
  ReferenceInput,
  Show,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import EditIcon from '@mui/icons-material/Edit';
import BlockIcon from '@mui/icons-material/Block';
import ReportIcon from '@mui/icons-material/Report';
import MergeIcon from '@mui/icons-material/MergeType';
import type { SubmissionPatch } from '../../../src/modules/submissions/submission.schema';
import { formatEventRange } from '../events/event-list.format';
import { formatUtc } from '../users/dates';
import { SubmissionChecks } from './SubmissionChecks';
import { undecided, type SubmissionRecord } from './submission-record';

/** The schema's bound on a rejection's reason. */
const REASON_MAX = 2000;

/** A card with a level-two heading, as the other detail screens have them. */
function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card variant="outlined">
      <CardHeader title={title} slotProps={{ title: { component: 'h2', variant: 'h6' } }} />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
      {actions && <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>{actions}</CardActions>}
    </Card>
  );
}

/** Label and value pairs as a description list. */
function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Stack component="dl" spacing={0.5} sx={{ m: 0 }}>
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
  );
}

/**
 * A decision or a merge: PATCH /submissions/:id with just what was chosen. A decision goes back
 * to the queue, whose lists and count are read again; a merge stays on the submission.
 */
function useModerate(record: SubmissionRecord) {
  const [update, { isPending }] = useUpdate<SubmissionRecord>();
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
  const moderate = (data: SubmissionPatch, done: string, back: boolean) =>
    update(
      'submissions',
      { id: record.id, data, previousData: record, meta: { whole: true } },
      {
        onSuccess: () => {
          notify(done, { type: 'success' });
          refresh();
          if (back) redirect('list', 'submissions');
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  return { moderate, busy: isPending };
}

function EventSummary({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const navigate = useNavigate();
  const { event } = record;
  const isNew = translate('cal.submissions.new_record');
  const when = `${formatEventRange(event, locale)}${event.all_day ? ` (${translate('cal.submissions.all_day')})` : ''} · ${event.timezone}`;
  const venue = event.venue ? `${event.venue.name}${event.venue.id === record.new_venue ? ` (${isNew})` : ''}` : '—';
  const organizers =
    event.organizers.map((o) => `${o.name}${record.new_organizers.includes(o.id) ? ` (${isNew})` : ''}`).join(', ') ||
    '—';
  return (
    <Section
      title={translate('cal.submissions.event')}
      actions={
        <Button startIcon={<EditIcon />} onClick={() => navigate(`/events/${record.event_id}`)}>
          {translate('cal.submissions.edit_event')}
        </Button>
      }
    >
      <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere', mb: 1 }}>
        {event.title}
      </Typography>
      <Facts
        rows={[
          [translate('cal.submissions.when'), when],
          [translate('cal.submissions.venue'), venue],
          [translate('cal.submissions.organizers'), organizers],
          [
            translate('cal.submissions.event_status'),
            translate(`cal.events.status.${event.status}`, { _: event.status }),
          ],
        ]}
      />
    </Section>
  );
}

function SubmitterCard({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const { name, email, user_id, ip } = record.submitter;
  const languageName = new Intl.DisplayNames([locale], { type: 'language' }).of(record.lang) ?? record.lang;
  return (
    <Section title={translate('cal.submissions.submitter')}>
      <Facts
        rows={[
          [
            translate('cal.submissions.name'),
            `${name || '—'}${user_id !== null ? ` (${translate('cal.submissions.signed_in')})` : ''}`,
          ],
          [translate('cal.submissions.email'), email ? <a href={`mailto:${email}`}>{email}</a> : '—'],
          [translate('cal.submissions.address'), ip || '—'],
          [translate('cal.submissions.language'), languageName],
          [translate('cal.submissions.submitted'), formatUtc(record.created, locale)],
        ]}
      />
    </Section>
  );
}

function ChecksCard({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  return (
    <Section title={translate('cal.submissions.checks')}>
      <SubmissionChecks record={record} />
      <Typography variant="body2" sx={{ mt: 1 }}>
        {translate('cal.submissions.verified_help')}
      </Typography>
      {record.checks.confirmed && (
        <Typography variant="body2" sx={{ mt: 1 }}>
          {translate('cal.submissions.email_confirmed')}
        </Typography>
      )}
    </Section>
  );
}

/** "Reject": a reason for the submitter, then the event goes to the trash. */
function RejectDialog({
  open,
  busy,
  onClose,
  onReject,
}: {
  open: boolean;
  busy: boolean;
  onClose: () => void;
  onReject: (reason: string) => void;
}) {
  const translate = useTranslate();
  const [reason, setReason] = useState('');
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="reject-title" fullWidth maxWidth="sm">
      <DialogTitle id="reject-title">{translate('cal.submissions.reject_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('cal.submissions.reject_help')}</DialogContentText>
        <TextField
          label={translate('cal.submissions.reason')}
          helperText={translate('cal.submissions.reason_help')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          multiline
          minRows={3}
          fullWidth
          autoFocus
          margin="normal"
          slotProps={{ htmlInput: { maxLength: REASON_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button color="error" sx={{ color: '#a50e0e' }} disabled={busy} onClick={() => onReject(reason.trim())}>
          {translate('cal.submissions.reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function DecisionCard({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const { moderate, busy } = useModerate(record);
  const [rejecting, setRejecting] = useState(false);
  const [spamming, setSpamming] = useState(false);
  const open = undecided(record);
  const rows: [string, ReactNode][] = [
    [translate('resources.submissions.fields.state'), translate(`cal.submissions.states.${record.state}`)],
  ];
  if (record.decided) rows.push([translate('cal.submissions.decided'), formatUtc(record.decided, locale)]);
  if (record.reason) rows.push([translate('cal.submissions.reason'), record.reason]);
  return (
    <Section
      title={translate('cal.submissions.decision')}
      actions={
        open && (
          <>
            <Button
              variant="contained"
              startIcon={<CheckIcon />}
              disabled={busy}
              onClick={() => moderate({ state: 'approved' }, 'cal.submissions.approved_done', true)}
            >
              {translate('cal.submissions.approve')}
            </Button>
            <Button
              color="error"
              sx={{ color: '#a50e0e' }}
              startIcon={<BlockIcon />}
              disabled={busy}
              onClick={() => setRejecting(true)}
            >
              {translate('cal.submissions.reject')}
            </Button>
            <Button
              color="error"
              sx={{ color: '#a50e0e' }}
              startIcon={<ReportIcon />}
              disabled={busy}
              onClick={() => setSpamming(true)}
            >
              {translate('cal.submissions.spam')}
            </Button>
          </>
        )
      }
    >
      <Facts rows={rows} />
      <RejectDialog
        open={rejecting}
        busy={busy}
        onClose={() => setRejecting(false)}
        onReject={(reason) => {
          setRejecting(false);
          moderate({ state: 'rejected', reason }, 'cal.submissions.rejected_done', true);
        }}
      />
      <Confirm
        isOpen={spamming}
        loading={busy}
        title="cal.submissions.spam_title"
        content="cal.submissions.spam_content"
        confirm="cal.submissions.spam_confirm"
        confirmColor="warning"
        onConfirm={() => {
          setSpamming(false);
          moderate({ state: 'spam' }, 'cal.submissions.spam_done', true);
        }}
        onClose={() => setSpamming(false)}
      />
    </Section>
  );
}

/**
 * The records this submission created, still linked to its event: merged into ones the calendar
 * already has (the event relinked, the new ones trashed by the API).
 */
function MergeCard({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const { moderate, busy } = useModerate(record);
  const { event } = record;
  const venueToMerge = record.new_venue !== null && event.venue?.id === record.new_venue;
  const organizersToMerge = record.new_organizers.some((id) => event.organizers.some((o) => o.id === id));
  if (!venueToMerge && !organizersToMerge) return null;
  return (
    <Section title={translate('cal.submissions.merge')}>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate('cal.submissions.merge_help')}
      </Typography>
      {venueToMerge && (
        <Form
          record={{}}
          onSubmit={(values: Record<string, unknown>) => {
            const venue = Number(values['venue']);
            if (venue > 0) moderate({ venue }, 'cal.submissions.merged', false);
          }}
        >
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
            <ReferenceInput source="venue" reference="venues">
              <AutocompleteInput
                label="cal.submissions.merge_venue_into"
                optionText="venue"
                helperText={false}
                sx={{ minWidth: 260 }}
              />
            </ReferenceInput>
            <Button type="submit" variant="outlined" startIcon={<MergeIcon />} disabled={busy}>
              {translate('cal.submissions.merge_venue')}
            </Button>
          </Stack>
        </Form>
      )}
      {organizersToMerge && (
        <Form
          record={{}}
          onSubmit={(values: Record<string, unknown>) => {
            const organizers = ((values['organizers'] as unknown[] | undefined) ?? [])
              .map(Number)
              .filter((id) => id > 0);
            if (organizers.length > 0) moderate({ organizers }, 'cal.submissions.merged', false);
          }}
        >
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' }, mt: 2 }}>
            <ReferenceArrayInput source="organizers" reference="organizers">
              <AutocompleteArrayInput
                label="cal.submissions.merge_organizers_into"
                optionText="organizer"
                helperText={false}
                sx={{ minWidth: 260 }}
              />
            </ReferenceArrayInput>
            <Button type="submit" variant="outlined" startIcon={<MergeIcon />} disabled={busy}>
              {translate('cal.submissions.merge_organizers')}
            </Button>
          </Stack>
        </Form>
      )}
    </Section>
  );
}

function SubmissionTitle() {
  const record = useRecordContext<SubmissionRecord>();
  const translate = useTranslate();
  return <>{record ? translate('cal.submissions.show_title', { title: record.event.title }) : ''}</>;
}

function SubmissionPanels() {
  const record = useRecordContext<SubmissionRecord>();
  if (!record) return null;
  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <DecisionCard record={record} />
      <EventSummary record={record} />
      <SubmitterCard record={record} />
      <ChecksCard record={record} />
      <MergeCard record={record} />
    </Stack>
  );
}

/** One submission: the event it made, who sent it, the checks, and the moderator's decisions. */
export default function SubmissionShow() {
  return (
    <Show title={<SubmissionTitle />} actions={false}>
      <SubmissionPanels />
    </Show>
  );
}
