import {
  Edit,
  email,
  maxLength,
  minLength,
  PasswordInput,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { roleChoices } from './roles';
import { ApplicationPasswords } from './ApplicationPasswords';
import { UserSessions } from './UserSessions';
import { DeleteUserButton } from './DeleteUserButton';

interface UserRecord {
  id: number;
  username: string;
  email: string;
  role: string;
}

function UserToolbar() {
  return (
    <Toolbar sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
      <SaveButton />
      <DeleteUserButton />
    </Toolbar>
  );
}

function UserTitle() {
  const record = useRecordContext<UserRecord>();
  const translate = useTranslate();
  return <>{translate('cal.users.edit_title', { name: record?.username ?? '' })}</>;
}

/** The panels beside the form: they read and write sub-resources of the user, not the user itself. */
function UserPanels() {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <ApplicationPasswords userId={record.id} />
      <UserSessions userId={record.id} username={record.username} />
    </Stack>
  );
}

/** An empty password field changes nothing; a filled one sets the login password (and ends that user's sessions). */
const withoutEmptyPassword = (data: Record<string, unknown>) => {
  const { password, ...rest } = data;
  return password ? { ...rest, password } : rest;
};

/** Role, email and a new login password; then application passwords, sessions and deletion. */
export default function UserEdit() {
  const translate = useTranslate();
  return (
    <Edit title={<UserTitle />} mutationMode="pessimistic" transform={withoutEmptyPassword}>
      <SimpleForm toolbar={<UserToolbar />}>
        <UsernameLine />
        <SelectInput source="role" choices={roleChoices} />
        <TextInput source="email" type="email" validate={[email(), maxLength(254)]} parse={(v: string) => v} />
        <PasswordInput
          source="password"
          label="cal.users.new_password"
          validate={[minLength(8), maxLength(1024)]}
          helperText={translate('cal.users.new_password_help')}
          autoComplete="new-password"
        />
      </SimpleForm>
      <UserPanels />
    </Edit>
  );
}

function UsernameLine() {
  const record = useRecordContext<UserRecord>();
  const translate = useTranslate();
  return (
    <Typography variant="subtitle1" component="p" sx={{ mb: 1 }}>
      {translate('resources.users.fields.username')}: <strong>{record?.username}</strong>
    </Typography>
  );
}
