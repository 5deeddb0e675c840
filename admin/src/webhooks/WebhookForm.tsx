import {
  AutocompleteArrayInput,
  BooleanInput,
  CheckboxGroupInput,
  maxLength,
  regex,
  required,
  SimpleForm,
  TextInput,
  useTranslate,
  type SimpleFormProps,
} from 'react-admin';
import { useLanguageChoices } from './siteLanguages';

const KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
const CHANGES = ['*', 'created', 'updated', 'trashed', 'deleted'] as const;

/** Every event type the API accepts (`kind.change`, `kind.*`, `*`), named in the reader's language. */
export function useEventTypeChoices() {
  const translate = useTranslate();
  const choices = [{ id: '*', name: `${translate('cal.webhooks.all_types')} (*)` }];
  for (const kind of KINDS)
    for (const change of CHANGES) {
      const id = `${kind}.${change}`;
      choices.push({
        id,
        name: `${translate(`cal.webhooks.kinds.${kind}`)}: ${translate(`cal.webhooks.changes.${change === '*' ? 'any' : change}`)} (${id})`,
      });
    }
  return choices;
}

/** Every field of a subscription: address, event types, languages, active. */
export function WebhookForm(props: Omit<SimpleFormProps, 'children'>) {
  const translate = useTranslate();
  const eventTypes = useEventTypeChoices();
  const languages = useLanguageChoices();
  return (
    <SimpleForm {...props}>
      <TextInput
        source="url"
        type="url"
        fullWidth
        validate={[required(), maxLength(2048), regex(/^https?:\/\//i, 'cal.webhooks.url_invalid')]}
        helperText="cal.webhooks.url_help"
      />
      <AutocompleteArrayInput
        source="events"
        choices={eventTypes}
        translateChoice={false}
        validate={required()}
        helperText="cal.webhooks.events_help"
        fullWidth
      />
      <CheckboxGroupInput
        source="languages"
        choices={languages}
        translateChoice={false}
        helperText={translate('cal.webhooks.languages_help')}
        row
        sx={{ '& .MuiFormGroup-root': { flexWrap: 'wrap' } }}
      />
      <BooleanInput source="active" helperText="cal.webhooks.active_help" />
    </SimpleForm>
  );
}
