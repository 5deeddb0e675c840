import {
  AutocompleteArrayInput,
  AutocompleteInput,
  ReferenceArrayInput,
  ReferenceInput,
  useCreate,
  useNotify,
  usePermissions,
  type RaRecord,
} from 'react-admin';
import { can } from '../../api/permissions';
import type { Role } from '../../api/session';

/** Typed text becomes a new record through the API, then is selected: "new venue" without leaving the form. */
function useCreateNamed(resource: string, field: string) {
  const [create] = useCreate();
  const notify = useNotify();
  return async (text?: string): Promise<RaRecord | undefined> => {
    const name = text?.trim();
    if (!name) return undefined;
    try {
      return await create(resource, { data: { [field]: name } }, { returnPromise: true });
    } catch (error) {
      notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
      return undefined;
    }
  };
}

const searchBy = (q: string) => ({ q });

export function VenueInput() {
  const onCreate = useCreateNamed('venues', 'venue');
  return (
    <ReferenceInput source="venue" reference="venues" sort={{ field: 'venue', order: 'ASC' }}>
      <AutocompleteInput
        label="cal.editor.fields.venue"
        optionText="venue"
        filterToQuery={searchBy}
        onCreate={onCreate}
        createItemLabel="cal.editor.create.venue"
        parse={(value: unknown) => (value === '' || value === undefined ? null : value)}
        sx={{ minWidth: { xs: '100%', sm: 320 } }}
      />
    </ReferenceInput>
  );
}

export function OrganizerInput() {
  const onCreate = useCreateNamed('organizers', 'organizer');
  return (
    <ReferenceArrayInput source="organizer" reference="organizers">
      <AutocompleteArrayInput
        label="cal.editor.fields.organizers"
        optionText="organizer"
        filterToQuery={searchBy}
        onCreate={onCreate}
        createItemLabel="cal.editor.create.organizer"
        sx={{ minWidth: { xs: '100%', sm: 320 } }}
      />
    </ReferenceArrayInput>
  );
}

/** Tags are typed; a new one is created only for roles that may manage tags (the API decides anyway). */
export function TagsInput() {
  const { permissions } = usePermissions<Role>();
  const onCreate = useCreateNamed('tags', 'name');
  return (
    <ReferenceArrayInput
      source="tags"
      reference="tags"
      sort={{ field: 'name', order: 'ASC' }}
      // The API hides tags without published events by default; a new tag has none yet.
      queryOptions={{ meta: { query: { hide_empty: false } } }}
    >
      <AutocompleteArrayInput
        label="cal.editor.fields.tags"
        optionText="name"
        filterToQuery={searchBy}
        {...(can(permissions, 'manage_tags') ? { onCreate, createItemLabel: 'cal.editor.create.tag' } : {})}
        sx={{ minWidth: { xs: '100%', sm: 320 } }}
      />
    </ReferenceArrayInput>
  );
}
