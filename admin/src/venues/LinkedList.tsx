import { useMediaQuery, type Theme } from '@mui/material';
import {
  BooleanInput,
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
  TopToolbar,
  useLocale,
  usePermissions,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { Role } from '../api/session';
import { can } from '../api/permissions';
import { languageName, useSiteLanguages } from './siteLanguages';
import { mayEditRecord } from './ownership';
import { LINKED_STATUSES, type LinkedKindUi } from './linked.kinds';

type LinkedRecord = RaRecord & { author?: string; status?: string; i18n_language?: string } & Record<string, unknown>;

function summary(kind: LinkedKindUi, record: LinkedRecord): string {
  return kind.summaryFields
    .map((field) => record[field])
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .join(', ');
}

function useFilters() {
  const translate = useTranslate();
  const locale = useLocale();
  const { languages } = useSiteLanguages();
  return [
    <SearchInput key="q" source="q" alwaysOn />,
    <SelectInput
      key="i18n_language"
      source="i18n_language"
      label="cal.linked.language"
      alwaysOn
      choices={languages.map((code) => ({ id: code, name: languageName(code, locale) }))}
    />,
    <SelectInput
      key="status"
      source="status"
      label="cal.linked.status"
      choices={[...LINKED_STATUSES, 'trash'].map((status) => ({
        id: status,
        name: translate(`cal.linked.statuses.${status}`),
      }))}
    />,
    <BooleanInput key="only_with_upcoming" source="only_with_upcoming" label="cal.linked.only_with_upcoming" />,
  ];
}

/**
 * The venue or organizer list: search, language, status and "with upcoming events" filters, the
 * API's pages. The API lists them newest first and sorts no other way, so no column sorts.
 * Rows open the editor only for the records the user may edit (their own below editor).
 */
export function LinkedList({ kind }: { kind: LinkedKindUi }) {
  const translate = useTranslate();
  const locale = useLocale();
  const { permissions: role } = usePermissions<Role>();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const filters = useFilters();
  const openable = (record: LinkedRecord) => (mayEditRecord(role, record) ? 'edit' : false);
  const statusText = (record: LinkedRecord) =>
    translate(`cal.linked.statuses.${record.status ?? 'publish'}`, { _: record.status ?? '' });
  const actions = <TopToolbar>{can(role, 'edit_posts') && <CreateButton />}</TopToolbar>;
  return (
    <List
      filters={filters}
      actions={actions}
      sort={{ field: 'date', order: 'DESC' }}
      perPage={25}
      empty={false}
      sx={{ '& .RaList-main': { minWidth: 0 } }}
    >
      {small ? (
        <SimpleList<LinkedRecord>
          primaryText={(record) => String(record[kind.nameField] ?? '')}
          secondaryText={(record) => summary(kind, record)}
          tertiaryText={statusText}
          rowClick={(_id, _resource, record) => openable(record as LinkedRecord)}
        />
      ) : (
        <Datagrid rowClick={(_id, _resource, record) => openable(record as LinkedRecord)} bulkActionButtons={false}>
          <TextField source={kind.nameField} sortable={false} />
          <FunctionField<LinkedRecord> label="cal.linked.details" sortable={false} render={(r) => summary(kind, r)} />
          <FunctionField<LinkedRecord> label="cal.linked.status" sortable={false} render={statusText} />
          <FunctionField<LinkedRecord>
            label="cal.linked.language"
            sortable={false}
            render={(record) => languageName(record.i18n_language ?? '', locale)}
          />
        </Datagrid>
      )}
    </List>
  );
}
