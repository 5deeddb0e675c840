import { useEffect, useState, type ReactElement } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BulkDeleteWithConfirmButton,
  BulkUpdateButton,
  CreateButton,
  Datagrid,
  DateInput,
  FilterButton,
  FunctionField,
  List,
  ReferenceArrayInput,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
  TopToolbar,
  useGetList,
  useListContext,
  useLocaleState,
  usePermissions,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { Box, Chip, Tab, Tabs, useMediaQuery, type Theme } from '@mui/material';
import PublishIcon from '@mui/icons-material/Publish';
import DeleteIcon from '@mui/icons-material/Delete';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { api } from '../api/http';
import { can } from '../api/permissions';
import { currentUser, type Role } from '../api/session';
import {
  EVERY_EVENT,
  STATUS_COLOURS,
  TAB_STATUSES,
  formatEventRange,
  zoneName,
  type EventRecord,
  type TabStatus,
} from './event-list.format';

/** The API's bound on a search (SearchText in src/http/schemas.ts). */
const SEARCH_MAX = 200;

/** The site's languages, from the API's index (GET /): the language filter's choices. */
function useSiteLanguages(): string[] {
  const [languages, setLanguages] = useState<string[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api<{ languages?: string[] }>('/', { signal: controller.signal })
      .then(({ json }) => setLanguages(json.languages ?? []))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return languages;
}

function eventFilters(translate: (key: string) => string, languages: string[], me: number | undefined) {
  const languageNames = new Intl.DisplayNames([navigator.language], { type: 'language' });
  return [
    <SearchInput key="q" source="q" alwaysOn slotProps={{ htmlInput: { maxLength: SEARCH_MAX } }} />,
    <ReferenceArrayInput key="categories" source="categories" reference="categories">
      <AutocompleteArrayInput label="resources.events.fields.categories" optionText="name" />
    </ReferenceArrayInput>,
    <ReferenceArrayInput key="tags" source="tags" reference="tags">
      <AutocompleteArrayInput label="resources.events.fields.tags" optionText="name" />
    </ReferenceArrayInput>,
    <ReferenceInput key="venue" source="venue" reference="venues">
      <AutocompleteInput label="resources.events.fields.venue" optionText="venue" />
    </ReferenceInput>,
    <ReferenceInput key="organizer" source="organizer" reference="organizers">
      <AutocompleteInput label="resources.events.fields.organizer" optionText="organizer" />
    </ReferenceInput>,
    <DateInput key="start_date" source="start_date" label="cal.events.list.from" />,
    <DateInput key="end_date" source="end_date" label="cal.events.list.to" />,
    <SelectInput
      key="i18n_language"
      source="i18n_language"
      choices={languages.map((code) => ({ id: code, name: languageNames.of(code) ?? code }))}
    />,
    ...(me === undefined
      ? []
      : [<SelectInput key="author" source="author" choices={[{ id: me, name: translate('cal.events.list.mine') }]} />]),
  ];
}

/** Per-status totals: the X-Cal-Total of a one-row page, under the filters a total should follow. */
function useStatusCount(status: TabStatus, base: Record<string, unknown>): number | undefined {
  const { total } = useGetList<EventRecord>('events', {
    pagination: { page: 1, perPage: 1 },
    filter: { ...base, ...(status ? { status } : {}) },
    meta: { query: { _fields: 'id' } },
  });
  return total;
}

function StatusTab({ status, base, ...tabProps }: { status: TabStatus; base: Record<string, unknown>; value: string }) {
  const translate = useTranslate();
  const count = useStatusCount(status, base);
  return <Tab {...tabProps} label={translate(`cal.events.tabs.${status ?? 'all'}`, { count: count ?? '…' })} />;
}

/**
 * The tabs by status, each with its total, as WordPress's "All | Published | …" line: the totals
 * follow the author and language filters (they say how many there are, not how many match a search).
 */
function StatusTabs() {
  const translate = useTranslate();
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const current = (filterValues['status'] as string | undefined) ?? 'all';
  const base: Record<string, unknown> = { ...EVERY_EVENT, context: 'edit' };
  for (const key of ['author', 'i18n_language']) if (filterValues[key] !== undefined) base[key] = filterValues[key];
  // A grid track of minmax(0, 1fr): the scrollable tabs never widen the page on a phone.
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)' }}>
      <Tabs
        value={current}
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        aria-label={translate('cal.events.tabs.label')}
        onChange={(_, value: string) => {
          const { status: _dropped, ...rest } = filterValues as Record<string, unknown>;
          setFilters(value === 'all' ? rest : { ...rest, status: value }, displayedFilters);
        }}
        sx={{ borderBottom: 1, borderColor: 'divider' }}
      >
        {TAB_STATUSES.map((status) => (
          <StatusTab key={status ?? 'all'} value={status ?? 'all'} status={status} base={base} />
        ))}
      </Tabs>
    </Box>
  );
}

function StatusChip({ record }: { record: EventRecord }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      label={translate(`cal.events.status.${record.status}`, { _: record.status })}
      sx={{ bgcolor: STATUS_COLOURS[record.status] ?? 'grey.700', color: '#fff' }}
    />
  );
}

function EventTimes({ record }: { record: EventRecord }) {
  const [locale = 'en'] = useLocaleState();
  const translate = useTranslate();
  return (
    <span>
      {formatEventRange(record, locale)}
      {record.all_day ? ` (${translate('cal.events.list.all_day')})` : ''}
      <Box component="span" sx={{ display: 'block', color: 'text.secondary', fontSize: '0.8125rem' }}>
        {zoneName(record)}
      </Box>
    </span>
  );
}

/** The bulk actions of the tab shown: restore and delete for good in the trash, publish and trash elsewhere. */
function BulkActions() {
  const { filterValues } = useListContext();
  const { permissions } = usePermissions<Role>();
  if (filterValues['status'] === 'trash') {
    return (
      <>
        <BulkUpdateButton
          label="cal.events.list.restore"
          icon={<RestoreFromTrashIcon />}
          data={{ status: 'draft' }}
          confirmTitle="cal.events.list.restore_title"
          confirmContent="cal.events.list.restore_content"
          mutationMode="pessimistic"
          successMessage="cal.events.list.restored"
        />
        <BulkDeleteWithConfirmButton
          label="cal.events.list.delete_forever"
          confirmTitle="cal.events.list.delete_title"
          confirmContent="cal.events.list.delete_content"
          mutationMode="pessimistic"
          mutationOptions={{ meta: { query: { force: true } } }}
          successMessage="cal.events.list.deleted"
        />
      </>
    );
  }
  return (
    <>
      {can(permissions, 'publish_posts') && filterValues['status'] !== 'publish' && (
        <BulkUpdateButton
          label="cal.events.list.publish"
          icon={<PublishIcon />}
          data={{ status: 'publish' }}
          confirmTitle="cal.events.list.publish_title"
          confirmContent="cal.events.list.publish_content"
          mutationMode="pessimistic"
          successMessage="cal.events.list.published"
        />
      )}
      <BulkTrashButton />
    </>
  );
}

/** Trashing is a DELETE without `force`: the API keeps the event in the trash, where it can be restored. */
function BulkTrashButton() {
  return (
    <BulkDeleteWithConfirmButton
      label="cal.events.list.trash"
      icon={<DeleteIcon />}
      confirmTitle="cal.events.list.trash_title"
      confirmContent="cal.events.list.trash_content"
      confirmColor="warning"
      mutationMode="pessimistic"
      successMessage="cal.events.list.trashed"
    />
  );
}

function ListActions({ filters }: { filters: ReactElement[] }) {
  return (
    <TopToolbar>
      <FilterButton filters={filters} />
      <CreateButton />
    </TopToolbar>
  );
}

function EventGrid({ showAuthor }: { showAuthor: boolean }) {
  const translate = useTranslate();
  return (
    <Datagrid bulkActionButtons={<BulkActions />} rowClick={false}>
      <FunctionField<EventRecord>
        source="title"
        sortable={false}
        render={(record) => <Link to={`/events/${record.id}`}>{record.title}</Link>}
      />
      <FunctionField<EventRecord>
        source="start_date"
        sortBy="start_date"
        label={`${translate('resources.events.fields.start_date')} – ${translate('resources.events.fields.end_date')}`}
        render={(record) => <EventTimes record={record} />}
      />
      <FunctionField<EventRecord>
        source="status"
        sortable={false}
        render={(record) => <StatusChip record={record} />}
      />
      <TextField source="venue.venue" label="resources.events.fields.venue" sortable={false} emptyText="—" />
      <FunctionField<EventRecord>
        source="categories"
        sortable={false}
        render={(record) => record.categories.map((c) => c.name).join(', ')}
      />
      {showAuthor && (
        <ReferenceField source="author" reference="users" sortable={false} link={false}>
          <TextField source="username" />
        </ReferenceField>
      )}
    </Datagrid>
  );
}

/** On a phone: one line per event, no columns to scroll sideways. */
function EventSimpleList() {
  const [locale = 'en'] = useLocaleState();
  const translate = useTranslate();
  return (
    <SimpleList<EventRecord>
      linkType="edit"
      primaryText={(record) => record.title}
      secondaryText={(record) => `${formatEventRange(record, locale)} · ${zoneName(record)}`}
      tertiaryText={(record) => translate(`cal.events.status.${record.status}`, { _: record.status })}
    />
  );
}

/**
 * The events: tabs by status with their totals, search, filters, sorting by start or publication
 * date, pages and bulk actions, all through GET /events. Contributors and authors open on their
 * own events (the `author` filter, which they may remove to see published ones too); editors
 * see everyone's, and administrators the author's name.
 */
export default function EventList() {
  const translate = useTranslate();
  const languages = useSiteLanguages();
  const me = currentUser();
  // The signed-in user's role, known before the list mounts (its default filters are read once).
  const role = me?.role;
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const filters = eventFilters(translate, languages, me?.id);
  return (
    <List<EventRecord>
      resource="events"
      filter={{ ...EVERY_EVENT, context: 'edit' }}
      filters={filters}
      filterDefaultValues={can(role, 'edit_others_posts') || !me ? {} : { author: me.id }}
      sort={{ field: 'start_date', order: 'DESC' }}
      perPage={25}
      exporter={false}
      // The tabs stay when a tab is empty: the trash must be reachable from an empty list.
      empty={false}
      actions={<ListActions filters={filters} />}
    >
      <StatusTabs />
      {phone ? <EventSimpleList /> : <EventGrid showAuthor={can(role, 'manage_options')} />}
    </List>
  );
}
