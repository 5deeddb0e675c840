import { Datagrid, FunctionField, List, SimpleList, useListContext, useLocaleState, useTranslate } from 'react-admin';
import { Box, Tab, Tabs, useMediaQuery, type Theme } from '@mui/material';
import { formatUtc } from '../users/dates';
import { formatEventRange } from '../events/event-list.format';
import { SubmissionChecks } from './SubmissionChecks';
import { SUBMISSION_TABS, submitterLine, type SubmissionRecord, type SubmissionTab } from './submission-record';

/** The event's start in its own zone (an end equal to the start: the start alone). */
function startOf(record: SubmissionRecord, locale: string): string {
  const { start_date, all_day } = record.event;
  return formatEventRange({ start_date, end_date: start_date, all_day }, locale);
}

/** One tab per state, pending first; `all` is asked for by name (the API's default is pending). */
function StateTabs() {
  const translate = useTranslate();
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const current = (filterValues['state'] as SubmissionTab | undefined) ?? 'pending';
  // A grid track of minmax(0, 1fr): the scrollable tabs never widen the page on a phone.
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Tabs
        value={current}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label={translate('cal.submissions.tabs.label')}
        onChange={(_, value: SubmissionTab) => setFilters({ ...filterValues, state: value }, displayedFilters)}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {SUBMISSION_TABS.map((tab) => (
          <Tab key={tab} value={tab} label={translate(`cal.submissions.tabs.${tab}`)} />
        ))}
      </Tabs>
    </Box>
  );
}

function Submitter({ record }: { record: SubmissionRecord }) {
  const translate = useTranslate();
  const { name, email, user_id } = record.submitter;
  return (
    <span>
      {name}
      <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
        {email}
      </Box>
      {user_id !== null && (
        <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.8125rem' }}>
          {translate('cal.submissions.signed_in')}
        </Box>
      )}
    </span>
  );
}

function SubmissionGrid() {
  const [locale = 'en'] = useLocaleState();
  return (
    <Datagrid rowClick="show" bulkActionButtons={false}>
      <FunctionField<SubmissionRecord> source="event" sortable={false} render={(r) => r.event.title} />
      <FunctionField<SubmissionRecord>
        source="start"
        sortable={false}
        render={(r) => (
          <span>
            {startOf(r, locale)}
            <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.8125rem' }}>
              {r.event.timezone}
            </Box>
          </span>
        )}
      />
      <FunctionField<SubmissionRecord> source="submitter" sortable={false} render={(r) => <Submitter record={r} />} />
      <FunctionField<SubmissionRecord> source="created" sortable={false} render={(r) => formatUtc(r.created, locale)} />
      <FunctionField<SubmissionRecord>
        source="checks"
        sortable={false}
        render={(r) => <SubmissionChecks record={r} />}
      />
    </Datagrid>
  );
}

/** On a phone: one entry per submission, no columns to scroll sideways. */
function SubmissionSimpleList() {
  const [locale = 'en'] = useLocaleState();
  const translate = useTranslate();
  return (
    <SimpleList<SubmissionRecord>
      linkType="show"
      primaryText={(r) => r.event.title}
      secondaryText={(r) => `${startOf(r, locale)} · ${submitterLine(r, translate('cal.submissions.signed_in'))}`}
      tertiaryText={(r) =>
        translate(r.checks.verified ? 'cal.submissions.verified' : 'cal.submissions.unverified') +
        (r.checks.duplicate_of !== null ? ` · ${translate('cal.submissions.duplicate')}` : '')
      }
      sx={{ '& .MuiListItemText-root': { overflowWrap: 'anywhere' } }}
    />
  );
}

/**
 * The moderators' queue: events sent from the public form, pending first, with who sent them
 * and what the form's checks found; a row opens the submission and its decisions.
 */
export default function SubmissionList() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <List<SubmissionRecord>
      resource="submissions"
      title="cal.submissions.title"
      filterDefaultValues={{ state: 'pending' }}
      perPage={25}
      exporter={false}
      actions={false}
      // The tabs stay when a tab is empty: the other states must stay reachable.
      empty={false}
    >
      <StateTabs />
      {phone ? <SubmissionSimpleList /> : <SubmissionGrid />}
    </List>
  );
}
