import { TextInput } from 'react-admin';

/**
 * The description, as HTML (the API stores it as given and wraps plain text in paragraphs).
 *
 * Meant to be ra-input-rich-text's RichTextInput, but the lockfile installs that package's own
 * @tiptap/core at 3.31.3 beside extensions at 3.34.0 that import what only 3.34 exports, and the
 * admin's build then fails. Until the lockfile resolves one @tiptap/core, the description is a
 * plain multi-line field, so the build keeps working for every screen.
 */
export function DescriptionInput() {
  return (
    <TextInput
      source="description"
      label="cal.editor.fields.description"
      helperText="cal.editor.help.description"
      multiline
      minRows={5}
      fullWidth
    />
  );
}
