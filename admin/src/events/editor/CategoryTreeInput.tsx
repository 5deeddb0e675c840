import { useMemo } from 'react';
import { Autocomplete, Box, Chip, TextField } from '@mui/material';
import { useGetList, useInput, useTranslate, type RaRecord } from 'react-admin';

interface Category extends RaRecord {
  name: string;
  parent?: number;
}

interface Node {
  id: number;
  name: string;
  depth: number;
  path: string;
}

/** The categories in tree order (each parent followed by its children), with their depth and path. */
export function treeOrder(categories: readonly Category[]): Node[] {
  const children = new Map<number, Category[]>();
  const ids = new Set(categories.map((c) => Number(c.id)));
  for (const category of categories) {
    const parent = category.parent && ids.has(category.parent) ? category.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), category]);
  }
  const nodes: Node[] = [];
  const seen = new Set<number>();
  const walk = (parent: number, depth: number, path: string) => {
    for (const category of [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name))) {
      const id = Number(category.id);
      if (seen.has(id)) continue;
      seen.add(id);
      const here = path ? `${path} › ${category.name}` : category.name;
      nodes.push({ id, name: category.name, depth, path: here });
      walk(id, depth + 1, here);
    }
  };
  walk(0, 0, '');
  return nodes;
}

/**
 * Categories as a tree, several at once: the list shows each category under its parent, typing
 * filters by the whole path ("Music › Jazz"). A site has tens of categories, so they come at once.
 */
export function CategoryTreeInput() {
  const translate = useTranslate();
  const { field, fieldState, id } = useInput<number[]>({ source: 'categories', defaultValue: [] });
  const { data = [], isPending } = useGetList<Category>('categories', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const nodes = useMemo(() => treeOrder(data), [data]);
  const byId = useMemo(() => new Map(nodes.map((node) => [node.id, node])), [nodes]);
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
      onChange={(_, value) => field.onChange(value.map((node) => node.id))}
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
