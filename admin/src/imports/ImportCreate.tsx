import {
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  Create,
  DateInput,
  FileField,
  FileInput,
  FormDataConsumer,
  maxLength,
  PasswordInput,
  RadioButtonGroupInput,
  ReferenceInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useTranslate,
} from 'react-admin';
import Typography from '@mui/material/Typography';
import { useLanguageChoices } from '../webhooks/siteLanguages';

/** The request body stays under the service's 1 MiB limit with room for the other fields. */
const MAX_UPLOAD_BYTES = 1_000_000;

type SourceKind = 'site' | 'feed' | 'file';

interface ImportForm {
  kind: SourceKind;
  from?: string;
  ics?: string;
  file?: { rawFile: File; title?: string };
  user?: string;
  password?: string;
  languages?: string[];
  since?: string;
  language?: string;
  category?: string;
  calendar_name?: string;
  author?: number;
  dry_run?: boolean;
  prune?: boolean;
}

/** The form's values as `POST /cal/admin/v1/imports` takes them: one source and its own options only. */
async function toRequest(form: ImportForm): Promise<Record<string, unknown>> {
  const common = { author: form.author || undefined, dry_run: form.dry_run, prune: form.prune };
  if (form.kind === 'site')
    return {
      ...common,
      from: form.from,
      user: form.user || undefined,
      password: form.password || undefined,
      languages: form.languages?.length ? form.languages : undefined,
      since: form.since || undefined,
    };
  const ics = {
    ...common,
    language: form.language || undefined,
    category: form.category || undefined,
    calendar_name: form.calendar_name || undefined,
  };
  if (form.kind === 'feed') return { ...ics, ics: form.ics };
  const file = form.file!.rawFile;
  return { ...ics, ics_content: await file.text(), filename: file.name };
}

const httpUrl = regex(/^https?:\/\/\S+$/i, 'cal.imports.url_invalid');

/** A new import: from a site's REST API, an iCalendar URL, or an uploaded .ics file; then its progress. */
export default function ImportCreate() {
  const translate = useTranslate();
  const languages = useLanguageChoices();
  return (
    <Create redirect="show" transform={(data: ImportForm) => toRequest(data)}>
      <SimpleForm defaultValues={{ kind: 'file', dry_run: false, prune: false }}>
        <RadioButtonGroupInput
          source="kind"
          choices={[
            { id: 'file', name: 'cal.imports.kind_file' },
            { id: 'feed', name: 'cal.imports.kind_feed' },
            { id: 'site', name: 'cal.imports.kind_site' },
          ]}
          sx={{ '& .MuiFormGroup-root': { flexWrap: 'wrap' } }}
        />
        <FormDataConsumer<ImportForm>>
          {({ formData }) =>
            formData.kind === 'site' ? (
              <>
                <TextInput
                  source="from"
                  type="url"
                  fullWidth
                  validate={[required(), maxLength(2048), httpUrl]}
                  helperText="cal.imports.from_help"
                />
                <TextInput
                  source="user"
                  validate={maxLength(254)}
                  autoComplete="off"
                  helperText="cal.imports.user_help"
                />
                <PasswordInput source="password" validate={maxLength(1024)} autoComplete="off" />
                <CheckboxGroupInput
                  source="languages"
                  choices={languages}
                  translateChoice={false}
                  helperText={translate('cal.imports.languages_help')}
                  row
                  sx={{ '& .MuiFormGroup-root': { flexWrap: 'wrap' } }}
                />
                <DateInput source="since" helperText="cal.imports.since_help" />
              </>
            ) : (
              <>
                {formData.kind === 'feed' ? (
                  <TextInput source="ics" type="url" fullWidth validate={[required(), maxLength(2048), httpUrl]} />
                ) : (
                  <>
                    <FileInput
                      source="file"
                      accept={{ 'text/calendar': ['.ics', '.ical', '.ifb', '.icalendar'] }}
                      maxSize={MAX_UPLOAD_BYTES}
                      validate={required()}
                      helperText="cal.imports.file_help"
                      inputProps={{ 'aria-label': translate('resources.imports.fields.file') }}
                    >
                      <FileField source="src" title="title" />
                    </FileInput>
                  </>
                )}
                <SelectInput
                  source="language"
                  choices={languages}
                  translateChoice={false}
                  emptyText="cal.imports.site_default"
                />
                <TextInput source="category" validate={maxLength(200)} helperText="cal.imports.category_help" />
                <TextInput source="calendar_name" validate={maxLength(200)} />
              </>
            )
          }
        </FormDataConsumer>
        <Typography variant="h6" component="h2" sx={{ mt: 2 }}>
          {translate('cal.imports.options')}
        </Typography>
        <ReferenceInput source="author" reference="users">
          <AutocompleteInput optionText="username" helperText="cal.imports.author_help" />
        </ReferenceInput>
        <BooleanInput source="dry_run" helperText="cal.imports.dry_run_help" />
        <BooleanInput source="prune" helperText="cal.imports.prune_help" />
      </SimpleForm>
    </Create>
  );
}
