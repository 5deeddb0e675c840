import { useEffect, useState } from 'react';
import { Box, useMediaQuery, type Theme } from '@mui/material';
import {
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  ListContextProvider,
  ListView,
  NumberField,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
  TopToolbar,
  useList,
  useLocale,
  usePermissions,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { Role } from '../api/session';
import { can } from '../api/permissions';
import { languageName, useSiteLanguages } from '../venues/siteLanguages';
import { treeOrder, type Placed, type TreeTerm } from './categoryTree';
import { useAllTerms } from './useAllTerms';
import type { TermKindUi } from './term.kinds';

type TermRow = RaRecord & TreeTerm & { slug?: string; description?: string; count?: number };
type TreeRow = Placed<TermRow> & { parentName?: string };

function useFilters() {
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
  ];
}

function Actions({ kind }: { kind: TermKindUi }) {
  const { permissions: role } = usePermissions<Role>();
  return <TopToolbar>{can(role, kind.capability) && <CreateButton />}</TopToolbar>;
}

/** Rows, as a table on wide screens and a list on phones; they open the editor only for those who may edit. */
function TermRows({ kind, tree }: { kind: TermKindUi; tree: boolean }) {
  const translate = useTranslate();
  const { permissions: role } = usePermissions<Role>();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const editable = can(role, kind.capability);
  const rowClick = editable ? 'edit' : false;
  const count = (row: TermRow) => translate('cal.terms.event_count', { smart_count: row.count ?? 0 });
  const indent = (row: TermRow) => (tree ? ((row as TreeRow).depth ?? 0) * 2 : 0);
  if (small)
    return (
      <SimpleList<TermRow>
        primaryText={(row) => <Box sx={{ pl: indent(row) }}>{row.name}</Box>}
        secondaryText={(row) => <Box sx={{ pl: indent(row) }}>{count(row)}</Box>}
        rowClick={rowClick}
      />
    );
  return (
    // No row checkboxes: react-admin's lack an accessible name under MUI 9 (axe: critical); the editor deletes.
    <Datagrid rowClick={rowClick} bulkActionButtons={false}>
      <FunctionField<TermRow>
        source="name"
        sortable={!tree}
        render={(row) => (
          <Box component="span" sx={{ pl: indent(row), display: 'inline-block' }}>
            {tree && indent(row) > 0 ? '— ' : ''}
            {row.name}
          </Box>
        )}
      />
      {tree && <TextField source="parentName" label="cal.terms.parent" sortable={false} />}
      <TextField source="slug" sortable={!tree} />
      <TextField
        source="description"
        sortable={false}
        sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
      />
      <NumberField source="count" label="cal.terms.events" sortable={!tree} />
    </Datagrid>
  );
}

/**
 * Tags: the API's pages, search and sorting (name, slug, count), empty tags included.
 */
function PagedTermList({ kind }: { kind: TermKindUi }) {
  return (
    <List
      filters={useFilters()}
      actions={<Actions kind={kind} />}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      empty={false}
      queryOptions={{ meta: { query: { hide_empty: false } } }}
    >
      <TermRows kind={kind} tree={false} />
    </List>
  );
}

/**
 * Categories: the whole tree of one language, read through the API's pages, each parent followed
 * by its children; search and pages then work on the tree here.
 */
function CategoryTreeList({ kind }: { kind: TermKindUi }) {
  const locale = useLocale();
  const translate = useTranslate();
  const filters = useFilters();
  const [language, setLanguage] = useState<string | undefined>();
  const { data, isPending, error } = useAllTerms(kind.resource, language);
  const rows: TreeRow[] = (() => {
    const placed = treeOrder((data ?? []) as TermRow[], locale);
    const names = new Map(placed.map((row) => [row.id, row.name]));
    return placed.map((row) => ({ ...row, parentName: row.parent ? names.get(row.parent) : undefined }));
  })();
  const listContext = useList<TreeRow>({ data: rows, isPending, error, perPage: 50, resource: kind.resource });
  const chosen = listContext.filterValues?.['i18n_language'] as string | undefined;
  useEffect(() => setLanguage(chosen || undefined), [chosen]);
  return (
    <ListContextProvider value={listContext}>
      <ListView
        filters={filters}
        actions={<Actions kind={kind} />}
        title={translate(`resources.${kind.resource}.name`, { smart_count: 2 })}
      >
        <TermRows kind={kind} tree />
      </ListView>
    </ListContextProvider>
  );
}

export function TermList({ kind }: { kind: TermKindUi }) {
  return kind.hierarchical ? <CategoryTreeList kind={kind} /> : <PagedTermList kind={kind} />;
}
