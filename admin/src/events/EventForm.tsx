import type { ReactNode } from 'react';
import {
  BooleanInput,
  DeleteButton,
  PasswordInput,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useCreatePath,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { FieldValues, SubmitHandler } from 'react-hook-form';
import { Box, Button, Divider, Typography } from '@mui/material';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { Link as RouterLink } from 'react-router-dom';
import { EventDates } from './editor/EventDates';
import { DescriptionInput } from './editor/DescriptionInput';
import { CategoryTreeInput } from './editor/CategoryTreeInput';
import { OrganizerInput, TagsInput, VenueInput } from './editor/LinkedInputs';
import { StatusInput } from './editor/StatusInput';
import { RecurrenceInput } from './RecurrenceInput';
import { isOccurrence, type EditorRecord } from './editor/event-shape';

/** Free texts are bounded here as the API bounds them, before anything reads them. */
const LIMITS = { title: 500, excerpt: 10_000, cost: 200, url: 2048, password: 255 };

const maxLength = (limit: number) => (value: unknown) =>
  typeof value === 'string' && value.length > limit
    ? { message: 'ra.validation.maxLength', args: { max: limit } }
    : undefined;

// Not react-admin's `required()`: that one adds " *" to the label, and the accessible name must stay "Title".
const titleRequired = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? undefined : 'ra.validation.required';

const webAddress = (value: unknown) =>
  typeof value !== 'string' || value === '' || /^https?:\/\/\S+$/i.test(value) || /^\d+$/.test(value)
    ? undefined
    : 'cal.editor.errors.url';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" sx={{ width: '100%', mt: 2 }}>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>{children}</Box>
    </Box>
  );
}

/** The public page of a saved event. */
export function PublicPageLink() {
  const translate = useTranslate();
  const record = useRecordContext<EditorRecord>();
  if (!record?.url) return null;
  return (
    <Button href={record.url} target="_blank" rel="noopener" endIcon={<OpenInNewIcon />}>
      {translate('cal.editor.public_page')}
    </Button>
  );
}

/** An occurrence's rule is its series': changed there (or by saving this one for "this and following"). */
function SeriesLink() {
  const translate = useTranslate();
  const createPath = useCreatePath();
  const record = useRecordContext<EditorRecord>();
  if (!record?.series_id) return null;
  return (
    <Button component={RouterLink} to={createPath({ resource: 'events', type: 'edit', id: record.series_id })}>
      {translate('cal.editor.recurrence.open_series')}
    </Button>
  );
}

function EventToolbar({ deletable }: { deletable: boolean }) {
  return (
    <Toolbar
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, justifyContent: 'space-between', bgcolor: 'background.paper' }}
    >
      <SaveButton />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <PublicPageLink />
        {deletable && <DeleteButton mutationMode="pessimistic" />}
      </Box>
    </Toolbar>
  );
}

export interface EventFormProps {
  defaultValues?: Partial<EditorRecord>;
  onSubmit?: SubmitHandler<FieldValues>;
  /** Shown above the fields (the translations of an event, the scope of an occurrence). */
  header?: ReactNode;
  deletable?: boolean;
}

/** The event editor's form, shared by the create and edit screens. */
export function EventForm({ defaultValues, onSubmit, header, deletable = false }: EventFormProps) {
  const record = useRecordContext<EditorRecord>();
  return (
    <SimpleForm
      defaultValues={defaultValues}
      onSubmit={onSubmit}
      toolbar={<EventToolbar deletable={deletable} />}
      warnWhenUnsavedChanges
      sx={{ maxWidth: 960 }}
    >
      {header}
      <TextInput
        source="title"
        label="cal.editor.fields.title"
        validate={[titleRequired, maxLength(LIMITS.title)]}
        fullWidth
      />
      <DescriptionInput />
      <TextInput
        source="excerpt"
        label="cal.editor.fields.excerpt"
        multiline
        minRows={2}
        validate={maxLength(LIMITS.excerpt)}
        fullWidth
      />

      <Section title="cal.editor.sections.when">
        <EventDates />
        {isOccurrence(record) ? <SeriesLink /> : <RecurrenceInput serverSummary={record?.recurrence_summary} />}
      </Section>

      <Section title="cal.editor.sections.where_who">
        <VenueInput />
        <OrganizerInput />
      </Section>

      <Section title="cal.editor.sections.classification">
        <CategoryTreeInput />
        <TagsInput />
      </Section>

      <Section title="cal.editor.sections.details">
        <TextInput source="cost" label="cal.editor.fields.cost" validate={maxLength(LIMITS.cost)} />
        <TextInput
          source="website"
          label="cal.editor.fields.website"
          type="url"
          validate={[maxLength(LIMITS.url), webAddress]}
          sx={{ minWidth: { xs: '100%', sm: 320 } }}
        />
        <TextInput
          source="image"
          label="cal.editor.fields.image"
          helperText="cal.editor.help.image"
          validate={[maxLength(LIMITS.url), webAddress]}
          sx={{ minWidth: { xs: '100%', sm: 320 } }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, width: '100%' }}>
          <BooleanInput source="featured" label="cal.editor.fields.featured" />
          <BooleanInput source="sticky" label="cal.editor.fields.sticky" />
          <BooleanInput source="hide_from_listings" label="cal.editor.fields.hide_from_listings" />
          <BooleanInput source="show_map" label="cal.editor.fields.show_map" />
          <BooleanInput source="show_map_link" label="cal.editor.fields.show_map_link" />
        </Box>
        <PasswordInput
          source="password"
          label="cal.editor.fields.password"
          helperText={record?.id !== undefined ? 'cal.editor.help.password_keep' : 'cal.editor.help.password'}
          validate={maxLength(LIMITS.password)}
          autoComplete="new-password"
        />
      </Section>

      <Section title="cal.editor.sections.publishing">
        <StatusInput current={record?.status} />
      </Section>
    </SimpleForm>
  );
}
