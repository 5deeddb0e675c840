import { useState } from 'react';
import {
  Create,
  email,
  maxLength,
  minLength,
  PasswordInput,
  regex,
  required,
  SelectInput,
  SimpleForm,
  TextInput,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { roleChoices } from './roles';
import { ShownOnceDialog } from './ShownOnceDialog';

interface CreatedUser {
  id: number;
  username: string;
  application_password?: string;
}

/** A new user: name, role, email and login password; the first application password is shown once. */
export default function UserCreate() {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [created, setCreated] = useState<CreatedUser | null>(null);
  const close = () => {
    const id = created?.id;
    setCreated(null);
    redirect(id === undefined ? 'list' : 'edit', 'users', id);
  };
  return (
    <>
      <Create
        redirect={false}
        mutationOptions={{ onSuccess: (data: CreatedUser) => setCreated(data) }}
        transform={(data: Record<string, unknown>) => (data.password ? data : { ...data, password: undefined })}
      >
        <SimpleForm defaultValues={{ role: 'author', email: '' }}>
          <TextInput
            source="username"
            validate={[required(), maxLength(60), regex(/^[A-Za-z0-9_.@-]+$/, 'cal.users.username_chars')]}
            autoComplete="off"
          />
          <SelectInput source="role" choices={roleChoices} validate={required()} />
          <TextInput source="email" type="email" validate={[email(), maxLength(254)]} parse={(v: string) => v} />
          <PasswordInput
            source="password"
            validate={[minLength(8), maxLength(1024)]}
            helperText="cal.users.password_help"
            autoComplete="new-password"
          />
        </SimpleForm>
      </Create>
      <ShownOnceDialog
        title={translate('cal.users.created_title', { name: created?.username ?? '' })}
        label={translate('cal.users.application_password')}
        secret={created?.application_password ?? null}
        onClose={close}
      />
    </>
  );
}
