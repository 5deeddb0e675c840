import { useMediaQuery, type Theme } from '@mui/material';
import {
  CreateButton,
  Datagrid,
  FunctionField,
  List,
  SimpleList,
  TextField,
  TopToolbar,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { formatUtc } from './dates';

interface UserRecord {
  id: number;
  username: string;
  email: string;
  role: string;
  registered: string;
}

/** Administrators' list of users: a table on wide screens, a simple list on a phone. */
export default function UserList() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const small = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'));
  const role = (record: UserRecord) => translate(`cal.users.roles.${record.role}`);
  return (
    <List
      sort={{ field: 'username', order: 'ASC' }}
      perPage={25}
      actions={
        <TopToolbar>
          <CreateButton />
        </TopToolbar>
      }
    >
      {small ? (
        <SimpleList<UserRecord>
          primaryText={(record) => record.username}
          secondaryText={role}
          tertiaryText={(record) => record.email}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={false}>
          <TextField source="username" />
          <TextField source="email" />
          <FunctionField<UserRecord> source="role" render={role} />
          <FunctionField<UserRecord> source="registered" render={(record) => formatUtc(record.registered, locale)} />
        </Datagrid>
      )}
    </List>
  );
}
