import { Create, SimpleForm, TextInput } from 'react-admin';

// PLACEHOLDER: replaced by the screen's real form.
export default function Screen() {
  return (
    <Create>
      <SimpleForm>
        <TextInput source="title" />
      </SimpleForm>
    </Create>
  );
}
