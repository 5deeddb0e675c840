import type { DataProvider, GetListParams, Identifier, RaRecord } from 'react-admin';
import { api, type Query } from './http';
import { resourceConfig, type ResourceConfig } from './resources';

/**
 * react-admin's data provider over the public REST API: nothing here that a client of the API
 * could not do. Lists use the API's pages (`page`, `per_page`, `X-Cal-Total`) and filters as they
 * are named in the API; updates send only what changed, with the `If-Match` of the version read,
 * so a record someone else saved meanwhile answers 412 instead of being overwritten.
 *
 * `meta.query` adds query parameters to any call (`context=edit`, `force=true`, `scope=…`).
 */

/** The ETag of each record as last read, for If-Match on its next update. */
const versions = new Map<string, string>();
const versionKey = (resource: string, id: Identifier) => `${resource}/${id}`;

type Row = RaRecord & Record<string, unknown>;

function totalOf(headers: Headers, json: unknown, rows: number): number {
  const header = headers.get('X-Cal-Total');
  if (header !== null && header !== '') return Number(header);
  const total = (json as { total?: unknown } | null)?.total;
  return typeof total === 'number' ? total : rows;
}

/** A paged list's rows, whether the API answered an envelope (`{events: [...]}`) or an array. */
function rowsOf(config: ResourceConfig, json: unknown): Row[] {
  if (Array.isArray(json)) return json as Row[];
  const rows = config.listKey ? (json as Record<string, unknown> | null)?.[config.listKey] : undefined;
  return Array.isArray(rows) ? (rows as Row[]) : [];
}

/** Filters react-admin keeps for itself (`q` is the search box) renamed to the API's. */
function apiFilters(filter: Record<string, unknown>): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    const name = key === 'q' ? 'search' : key;
    query[name] = Array.isArray(value) ? (value as (string | number)[]) : (value as string | number | boolean);
  }
  return query;
}

async function pagedList(config: ResourceConfig, params: GetListParams) {
  const { page = 1, perPage = 20 } = params.pagination ?? {};
  const sort = params.sort && config.sorts?.[params.sort.field];
  const query: Query = {
    ...apiFilters(params.filter ?? {}),
    ...(params.meta?.query as Query | undefined),
    page,
    per_page: Math.min(perPage, config.maxPerPage ?? perPage),
    ...(sort ? { orderby: sort, order: params.sort!.order.toLowerCase() } : {}),
  };
  const { json, headers } = await api(config.path, { query, signal: params.signal });
  const data = rowsOf(config, json);
  return { data, total: totalOf(headers, json, data.length) };
}

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

/** Small admin collections come whole: filtered (`q` over every text field), sorted and paged here. */
async function wholeList(config: ResourceConfig, params: GetListParams) {
  const { json } = await api(config.path, { signal: params.signal, query: params.meta?.query as Query | undefined });
  let rows = rowsOf(config, json);
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === '') continue;
    if (key === 'q') {
      const needle = String(value).toLowerCase();
      rows = rows.filter((row) =>
        Object.values(row).some((v) => typeof v === 'string' && v.toLowerCase().includes(needle)),
      );
    } else rows = rows.filter((row) => String(row[key]) === String(value));
  }
  if (params.sort?.field) {
    const { field, order } = params.sort;
    rows = [...rows].sort((a, b) => compare(a[field], b[field]) * (order === 'DESC' ? -1 : 1));
  }
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  return { data: rows.slice((page - 1) * perPage, page * perPage), total: rows.length };
}

/** The fields of `data` that differ from `previous` (deep, by JSON): a PATCH of what the user changed. */
export function changedFields(data: Record<string, unknown>, previous: Record<string, unknown> | undefined) {
  if (!previous) return data;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (JSON.stringify(value) !== JSON.stringify(previous[key])) changed[key] = value;
  }
  return changed;
}

async function updateOne(resource: string, id: Identifier, body: unknown, query?: Query, ifMatch = true) {
  const config = resourceConfig(resource);
  const version = ifMatch ? versions.get(versionKey(resource, id)) : undefined;
  const { json, headers } = await api<Row>(`${config.path}/${id}`, {
    method: 'PATCH',
    body,
    query,
    headers: version ? { 'If-Match': version } : {},
  });
  const etag = headers.get('ETag');
  if (etag) versions.set(versionKey(resource, id), etag);
  return json;
}

async function deleteOne(resource: string, id: Identifier, query?: Query): Promise<Row> {
  const config = resourceConfig(resource);
  const { json } = await api<Row & { previous?: Row }>(`${config.path}/${id}`, { method: 'DELETE', query });
  versions.delete(versionKey(resource, id));
  // Trashing answers the record; deleting for good answers `{deleted, previous}`.
  return (json?.previous ?? json ?? { id }) as Row;
}

export const dataProvider: DataProvider = {
  async getList(resource, params) {
    const config = resourceConfig(resource);
    return (config.paged ? pagedList(config, params) : wholeList(config, params)) as never;
  },

  async getOne(resource, params) {
    const config = resourceConfig(resource);
    const { json, headers } = await api<Row>(`${config.path}/${params.id}`, {
      query: params.meta?.query as Query | undefined,
      signal: params.signal,
    });
    const etag = headers.get('ETag');
    if (etag) versions.set(versionKey(resource, params.id), etag);
    return { data: json } as never;
  },

  async getMany(resource, params) {
    const config = resourceConfig(resource);
    if (params.ids.length === 0) return { data: [] };
    if (!config.paged) {
      const { data } = await wholeList(config, { pagination: { page: 1, perPage: 10_000 } });
      const wanted = new Set(params.ids.map(String));
      return { data: data.filter((row) => wanted.has(String(row.id))) } as never;
    }
    const { json } = await api(config.path, {
      query: { include: params.ids as Identifier[] as number[], per_page: params.ids.length, ...params.meta?.query },
      signal: params.signal,
    });
    return { data: rowsOf(config, json) } as never;
  },

  async getManyReference(resource, params) {
    return this.getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } });
  },

  async create(resource, params) {
    const config = resourceConfig(resource);
    const { json, headers } = await api<Row>(config.path, {
      method: 'POST',
      body: params.data,
      query: params.meta?.query as Query | undefined,
    });
    const etag = headers.get('ETag');
    if (etag && json?.id !== undefined) versions.set(versionKey(resource, json.id), etag);
    return { data: json } as never;
  },

  async update(resource, params) {
    const body = params.meta?.whole ? params.data : changedFields(params.data, params.previousData);
    const data = await updateOne(resource, params.id, body, params.meta?.query as Query | undefined);
    return { data } as never;
  },

  /** Bulk changes (publish, restore): one request per record, as a client of the API would. */
  async updateMany(resource, params) {
    const done: Identifier[] = [];
    for (const id of params.ids) {
      await updateOne(resource, id, params.data, params.meta?.query as Query | undefined, false);
      done.push(id);
    }
    return { data: done };
  },

  async delete(resource, params) {
    return { data: (await deleteOne(resource, params.id, params.meta?.query as Query | undefined)) as never };
  },

  async deleteMany(resource, params) {
    const done: Identifier[] = [];
    for (const id of params.ids) {
      await deleteOne(resource, id, params.meta?.query as Query | undefined);
      done.push(id);
    }
    return { data: done };
  },
};

/** Forgets the version read of a record: the next update goes without If-Match (the user chose to overwrite). */
export function forgetVersion(resource: string, id: Identifier): void {
  versions.delete(versionKey(resource, id));
}
