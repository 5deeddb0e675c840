import { Box, Typography } from '@mui/material';
import { red } from '@mui/material/colors';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import {
  BooleanInput,
  Button,
  Create,
  DeleteButton,
  Edit,
  NumberInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  maxLength,
  maxValue,
  minValue,
  required,
  useLocale,
  usePermissions,
  useRecordContext,
  useTranslate,
  useUpdate,
  type RaRecord,
} from 'react-admin';
import type { Role } from '../api/session';
import { can } from '../api/permissions';
import { languageName, useSiteLanguages } from './siteLanguages';
import { mayEditRecord } from './ownership';
import { Translations } from './Translations';
import { UpcomingEvents } from './UpcomingEvents';
import { LINKED_STATUSES, UNPUBLISHED_STATUSES, type LinkedKindUi } from './linked.kinds';

type LinkedRecord = RaRecord & { author?: string; status?: string; image?: unknown } & Record<string, unknown>;

const NAME_MAX = 200;
const TEXT_MAX = 500;
const SLUG_MAX = 200;

/** The image as the form shows it: the API answers `{url, id, …}` and takes an id or a URL. */
const imageText = (value: unknown): string =>
  value && typeof value === 'object' ? String((value as { url?: string }).url ?? '') : String(value ?? '');
const imageValue = (text: string): string | null => (text.trim() === '' ? null : text.trim());

/** MUI's error reds on the toolbar's grey (#e0e0e0) fall short of 4.5:1 (axe: 4.26 for error.dark); red 900 gives 4.98. */
const DELETE_SX = { color: red[900] };

function StatusInput() {
  const translate = useTranslate();
  const { permissions: role } = usePermissions<Role>();
  const record = useRecordContext<LinkedRecord>();
  // Without publish_posts the API scales publish back to pending: offer only what will happen.
  const allowed: readonly string[] = can(role, 'publish_posts') ? LINKED_STATUSES : UNPUBLISHED_STATUSES;
  const statuses = record?.status && !allowed.includes(record.status) ? [record.status, ...allowed] : allowed;
  return (
    <SelectInput
      source="status"
      label="cal.linked.status"
      choices={statuses.map((status) => ({ id: status, name: translate(`cal.linked.statuses.${status}`) }))}
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

/** The fields every venue or organizer form has, then the kind's own. */
function LinkedFields({ kind, creating }: { kind: LinkedKindUi; creating: boolean }) {
  const translate = useTranslate();
  const { permissions: role } = usePermissions<Role>();
  return (
    <>
      <TextInput
        source={kind.nameField}
        validate={[required(), maxLength(NAME_MAX)]}
        fullWidth
        slotProps={{ htmlInput: { maxLength: NAME_MAX } }}
      />
      {kind.textFields.map((field) => (
        <TextInput
          key={field.source}
          source={field.source}
          type={field.type}
          validate={maxLength(TEXT_MAX)}
          fullWidth
          parse={(value: string) => value}
          slotProps={{ htmlInput: { maxLength: TEXT_MAX } }}
        />
      ))}
      {kind.flags.map((flag) => (
        <BooleanInput key={flag} source={flag} />
      ))}
      {kind.coordinates && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, width: '100%' }}>
          <NumberInput source="geo_lat" validate={[minValue(-90), maxValue(90)]} helperText="cal.linked.geo_help" />
          <NumberInput source="geo_lng" validate={[minValue(-180), maxValue(180)]} helperText="cal.linked.geo_help" />
        </Box>
      )}
      <TextInput source="description" multiline minRows={4} fullWidth helperText="cal.linked.html_help" />
      <TextInput source="excerpt" multiline minRows={2} fullWidth />
      <TextInput
        source="image"
        type="url"
        format={imageText}
        parse={imageValue}
        fullWidth
        helperText="cal.linked.image_help"
      />
      <TextInput
        source="slug"
        validate={maxLength(SLUG_MAX)}
        helperText="cal.linked.slug_help"
        slotProps={{ htmlInput: { maxLength: SLUG_MAX } }}
      />
      <StatusInput />
      {can(role, 'edit_others_posts') && (
        <NumberInput
          source="author"
          label="cal.linked.author"
          min={1}
          step={1}
          format={(value: unknown) => (value === undefined || value === '' ? undefined : Number(value))}
        />
      )}
      {creating && <LanguageInput />}
      {!creating && (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {translate('cal.linked.language_fixed')}
        </Typography>
      )}
    </>
  );
}

/** What a new translation starts from: the original's fields, its name and texts included. */
function copyFor(kind: LinkedKindUi) {
  return (record: Record<string, unknown>) => {
    const copy: Record<string, unknown> = { [kind.nameField]: record[kind.nameField] };
    for (const field of [...kind.textFields.map((f) => f.source), ...kind.flags, 'description', 'excerpt'])
      if (record[field] !== undefined) copy[field] = record[field];
    return copy;
  };
}

/** A trashed record comes back as a draft (the API's trash is a status). */
function RestoreButton() {
  const record = useRecordContext<LinkedRecord>();
  const [update, { isPending }] = useUpdate();
  if (record?.status !== 'trash') return null;
  return (
    <Button
      label="cal.linked.restore"
      disabled={isPending}
      onClick={() => update(undefined, { id: record.id, data: { status: 'draft' }, previousData: record })}
    >
      <RestoreFromTrashIcon />
    </Button>
  );
}

function EditToolbar() {
  const record = useRecordContext<LinkedRecord>();
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <SaveButton />
      {record?.status === 'trash' ? <RestoreButton /> : <DeleteButton mutationMode="pessimistic" sx={DELETE_SX} />}
    </Toolbar>
  );
}

function LinkedEditView({ kind }: { kind: LinkedKindUi }) {
  const record = useRecordContext<LinkedRecord>();
  const { permissions: role } = usePermissions<Role>();
  if (!record) return null;
  const editable = mayEditRecord(role, record);
  return (
    <>
      <SimpleForm toolbar={editable ? <EditToolbar /> : false} disabled={!editable} sx={{ maxWidth: 720 }}>
        <LinkedFields kind={kind} creating={false} />
      </SimpleForm>
      <Box sx={{ px: 2, pb: 2 }}>
        <Translations copy={copyFor(kind)} />
        <UpcomingEvents target={kind.eventFilter} />
      </Box>
    </>
  );
}

export function LinkedEdit({ kind }: { kind: LinkedKindUi }) {
  return (
    <Edit mutationMode="pessimistic" redirect={false}>
      <LinkedEditView kind={kind} />
    </Edit>
  );
}

export function LinkedCreate({ kind }: { kind: LinkedKindUi }) {
  const { permissions: role } = usePermissions<Role>();
  return (
    <Create redirect="edit">
      <SimpleForm
        sx={{ maxWidth: 720 }}
        defaultValues={{ ...kind.defaults, status: can(role, 'publish_posts') ? 'publish' : 'pending' }}
      >
        <LinkedFields kind={kind} creating />
      </SimpleForm>
    </Create>
  );
}
