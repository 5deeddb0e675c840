import { Box, Typography } from '@mui/material';
import { red } from '@mui/material/colors';
import {
  Create,
  DeleteButton,
  Edit,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  maxLength,
  required,
  useLocale,
  usePermissions,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { Role } from '../api/session';
import { can } from '../api/permissions';
import { languageName, useSiteLanguages } from '../venues/siteLanguages';
import { Translations } from '../venues/Translations';
import { subtreeIds, treeOrder } from './categoryTree';
import { useAllTerms } from './useAllTerms';
import { TERM_DESCRIPTION_MAX, TERM_NAME_MAX, TERM_SLUG_MAX, type TermKindUi } from './term.kinds';

type TermRecord = RaRecord & {
  name?: string;
  slug?: string;
  description?: string;
  parent?: number;
  count?: number;
  i18n_language?: string;
};

/** MUI's error reds on the toolbar's grey (#e0e0e0) fall short of 4.5:1 (axe: 4.26 for error.dark); red 900 gives 4.98. */
const DELETE_SX = { color: red[900] };

/**
 * The parent chosen from the tree, indented, in the category's language; the category itself and
 * what lies under it are left out, since the API refuses a parent loop.
 */
function ParentInput() {
  const translate = useTranslate();
  const locale = useLocale();
  const record = useRecordContext<TermRecord>();
  const { defaultLanguage } = useSiteLanguages();
  const formLanguage = useWatch({ name: 'i18n_language' }) as string | undefined;
  const language = record?.i18n_language ?? formLanguage ?? defaultLanguage;
  const { data = [], isPending } = useAllTerms('categories', language);
  const excluded = record?.id !== undefined ? subtreeIds(data, Number(record.id)) : new Set<number>();
  const choices = [
    { id: 0, name: translate('cal.terms.no_parent') },
    ...treeOrder(data, locale)
      .filter((term) => !excluded.has(term.id))
      .map((term) => ({ id: term.id, name: `${'\u2003'.repeat(term.depth)}${term.name}` })),
  ];
  return (
    <SelectInput
      source="parent"
      label="cal.terms.parent"
      choices={choices}
      isPending={isPending}
      defaultValue={0}
      emptyText="cal.terms.no_parent"
      emptyValue={0}
    />
  );
}

function LanguageInput() {
  const locale = useLocale();
  const { languages, defaultLanguage } = useSiteLanguages();
  if (languages.length < 2) return null;
  return (
    <SelectInput
      source="i18n_language"
      label="cal.linked.language"
      defaultValue={defaultLanguage}
      choices={languages.map((code) => ({ id: code, name: languageName(code, locale) }))}
      helperText="cal.linked.language_help"
    />
  );
}

function TermFields({ kind, creating }: { kind: TermKindUi; creating: boolean }) {
  return (
    <>
      <TextInput
        source="name"
        validate={[required(), maxLength(TERM_NAME_MAX)]}
        fullWidth
        slotProps={{ htmlInput: { maxLength: TERM_NAME_MAX } }}
      />
      <TextInput
        source="slug"
        validate={maxLength(TERM_SLUG_MAX)}
        helperText="cal.linked.slug_help"
        fullWidth
        slotProps={{ htmlInput: { maxLength: TERM_SLUG_MAX } }}
      />
      {creating && <LanguageInput />}
      {kind.hierarchical && <ParentInput />}
      <TextInput
        source="description"
        multiline
        minRows={3}
        fullWidth
        validate={maxLength(TERM_DESCRIPTION_MAX)}
        slotProps={{ htmlInput: { maxLength: TERM_DESCRIPTION_MAX } }}
      />
    </>
  );
}

/**
 * The API takes a name, slug or description only when it is not empty (as WordPress does): an
 * emptied slug means "leave it as it is", and is not sent.
 */
function withoutEmpty(data: Record<string, unknown>): Record<string, unknown> {
  const sent = { ...data };
  for (const key of ['slug', 'description'])
    if (sent[key] === null || sent[key] === undefined || sent[key] === '') delete sent[key];
  return sent;
}

function EventCount() {
  const record = useRecordContext<TermRecord>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Typography variant="body2" sx={{ px: 2, pb: 2 }}>
      {translate('cal.terms.event_count', { smart_count: record.count ?? 0 })}
    </Typography>
  );
}

function TermEditView({ kind }: { kind: TermKindUi }) {
  const { permissions: role } = usePermissions<Role>();
  const editable = can(role, kind.capability);
  const toolbar = (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <SaveButton />
      <DeleteButton mutationMode="pessimistic" sx={DELETE_SX} />
    </Toolbar>
  );
  return (
    <>
      <SimpleForm toolbar={editable ? toolbar : false} disabled={!editable} sx={{ maxWidth: 720 }}>
        <TermFields kind={kind} creating={false} />
      </SimpleForm>
      <EventCount />
      <Box sx={{ px: 2, pb: 2 }}>
        <Translations copy={(record) => ({ name: record['name'], description: record['description'] || undefined })} />
      </Box>
    </>
  );
}

export function TermEdit({ kind }: { kind: TermKindUi }) {
  return (
    <Edit mutationMode="pessimistic" redirect="list" transform={withoutEmpty}>
      <TermEditView kind={kind} />
    </Edit>
  );
}

export function TermCreate({ kind }: { kind: TermKindUi }) {
  return (
    <Create redirect="list" transform={withoutEmpty}>
      <SimpleForm sx={{ maxWidth: 720 }}>
        <TermFields kind={kind} creating />
      </SimpleForm>
    </Create>
  );
}
