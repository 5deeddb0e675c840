import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import { useInput, useLocaleState, useTranslate } from 'react-admin';
import { treeOrder, type Placed, type TreeTerm } from '../../terms/categoryTree';
import { useAllTerms } from '../../terms/useAllTerms';

type Node = Placed<TreeTerm>;

/**
 * Categories as a tree, several at once: the list shows each category under its parent, typing
 * filters by the whole path. The categories are the event's language's, empty ones included.
 */
export function CategoryTreeInput() {
  const translate = useTranslate();
  const [locale = 'en'] = useLocaleState();
  const language = useWatch({ name: 'i18n_language' }) as string | undefined;
  const { field, fieldState, id } = useInput<number[]>({ source: 'categories', defaultValue: [] });
  const { data = [], isPending } = useAllTerms('categories', language);
  const nodes = useMemo(() => treeOrder(data, locale), [data, locale]);
  const byId = useMemo(() => new Map(nodes.map((node) => [Number(node.id), node])), [nodes]);
  const selected = ((field.value ?? []) as number[])
    .map((value) => byId.get(Number(value)))
    .filter((node): node is Node => node !== undefined);

  return (
    <Autocomplete
      multiple
      id={id}
      options={nodes}
      loading={isPending}
      value={selected}
      onChange={(_, value) => field.onChange(value.map((node) => Number(node.id)))}
      onBlur={field.onBlur}
      getOptionLabel={(node) => node.path}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      disableCloseOnSelect
      renderOption={({ key, ...props }, node) => (
        <Box component="li" key={key} {...props} sx={{ pl: `${1 + node.depth * 2}rem !important` }}>
          {node.name}
        </Box>
      )}
      renderValue={(value, getItemProps) =>
        value.map((node, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={node.path} {...itemProps} />;
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('cal.editor.fields.categories')}
          error={fieldState.invalid}
          helperText={fieldState.error?.message ? translate(fieldState.error.message) : ' '}
          size="small"
        />
      )}
      sx={{ minWidth: { xs: '100%', sm: 320 }, flex: 1 }}
    />
  );
}
