import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import {
  ClearButtons,
  DefaultEditorOptions,
  FormatButtons,
  LinkButtons,
  ListButtons,
  QuoteButtons,
  RichTextInput,
  RichTextInputToolbar,
} from 'ra-input-rich-text';

/** tiptap inserts a style element of its own: with the page's nonce, the admin's CSP lets it in. */
const NONCE = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? undefined;

/**
 * The description, in ra-input-rich-text's editor (tiptap): paragraphs, headings, emphasis, lists,
 * links and quotes, as HTML the API sanitizes on the way in. package.json's `overrides` pin one
 * @tiptap/core for the package and its extensions (npm otherwise installed two that do not fit).
 * The editable area is a text box of its own, so it gets the field's name too. The toolbar leaves
 * out what the API's sanitizer would strip (colours, alignment: style attributes) and the
 * heading menu, whose list items sit outside a list (an accessibility error axe reports).
 */
export function DescriptionInput() {
  const translate = useTranslate();
  const name = translate('cal.editor.fields.description');
  const options = useMemo(
    () => ({
      ...DefaultEditorOptions,
      injectNonce: NONCE,
      editorProps: {
        ...DefaultEditorOptions.editorProps,
        attributes: { ...DefaultEditorOptions.editorProps?.attributes, 'aria-label': name },
      },
    }),
    [name],
  );
  return (
    <RichTextInput
      source="description"
      label="cal.editor.fields.description"
      helperText="cal.editor.help.description"
      fullWidth
      editorOptions={options}
      toolbar={
        <RichTextInputToolbar size="small">
          <FormatButtons size="small" />
          <ListButtons size="small" />
          <LinkButtons size="small" />
          <QuoteButtons size="small" />
          <ClearButtons size="small" />
        </RichTextInputToolbar>
      }
    />
  );
}
