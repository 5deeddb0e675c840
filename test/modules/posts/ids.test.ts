import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { connect, migrate } from '../../../src/db/connect.js';

const V1 = '/cal/events/v1';
const ADMIN = '/cal/admin/v1';

for (const backend of backends()) {
  describe(`ids are never handed out twice [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    before(async () => {
      t = await createTestApp(backend);
      admin = await t.asUser('administrator', 'ids-admin');
    });
    after(() => t.close());

    const post = (url: string, payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url, auth: admin.authorization, payload });

    for (const [kind, noun] of [
      ['tags', 'tag'],
      ['categories', 'category'],
    ] as const) {
      it(`should give a new ${noun} an id above the deleted highest one`, async () => {
        const first = await post(`${V1}/${kind}`, { name: `${kind} one` });
        const highest = await post(`${V1}/${kind}`, { name: `${kind} two` });
        assert.ok(highest.data.id > first.data.id);
        assert.equal(
          (await t.request({ method: 'DELETE', url: `${V1}/${kind}/${highest.data.id}`, auth: admin.authorization }))
            .statusCode,
          200,
        );
        const next = await post(`${V1}/${kind}`, { name: `${kind} three` });
        assert.equal(next.statusCode, 201);
        assert.ok(next.data.id > highest.data.id, `${next.data.id} > ${highest.data.id}`);
      });
    }

    it('should give a new user an id above the deleted highest one', async () => {
      const highest = await post(`${ADMIN}/users`, { username: 'highest-user', role: 'author' });
      assert.equal(
        (await t.request({ method: 'DELETE', url: `${ADMIN}/users/${highest.data.id}`, auth: admin.authorization }))
          .statusCode,
        200,
      );
      const next = await post(`${ADMIN}/users`, { username: 'next-user', role: 'author' });
      assert.ok(next.data.id > highest.data.id, `${next.data.id} > ${highest.data.id}`);
    });

    it('should give a new application password an id above the revoked highest one', async () => {
      await post(`${ADMIN}/users/${admin.id}/application-passwords`, { name: 'extra' });
      const before = (
        await t.request({
          method: 'GET',
          url: `${ADMIN}/users/${admin.id}/application-passwords`,
          auth: admin.authorization,
        })
      ).data as { id: number }[];
      const highest = Math.max(...before.map((p) => p.id));
      assert.equal(
        (
          await t.request({
            method: 'DELETE',
            url: `${ADMIN}/users/${admin.id}/application-passwords/${highest}`,
            auth: admin.authorization,
          })
        ).statusCode,
        200,
      );
      await post(`${ADMIN}/users/${admin.id}/application-passwords`, { name: 'another' });
      const after = (
        await t.request({
          method: 'GET',
          url: `${ADMIN}/users/${admin.id}/application-passwords`,
          auth: admin.authorization,
        })
      ).data as { id: number }[];
      assert.ok(Math.max(...after.map((p) => p.id)) > highest);
    });

    it('should give new events, venues, organizers and images ids above a removed highest post id', async () => {
      const event = await post(`${V1}/events`, {
        title: 'Highest',
        start_date: '2030-03-01 10:00:00',
        end_date: '2030-03-01 11:00:00',
        image: 'https://example.org/a.jpg',
      });
      assert.equal(event.statusCode, 201);
      const highest = event.data.image.id as number;
      assert.ok(highest > event.data.id);
      // Nothing in the API deletes a post row for good; remove the highest directly, as a purge would.
      await t.storage.db.deleteFrom('images').where('id', '=', highest).execute();
      await t.storage.db.deleteFrom('posts').where('id', '=', highest).execute();
      const venue = await post(`${V1}/venues`, { venue: 'After the purge' });
      assert.ok(venue.data.id > highest, `${venue.data.id} > ${highest}`);
    });
  });
}

describe('migration 006 keeps every id and continues above the highest [sqlite]', () => {
  it('should rebuild the tables with their rows, indexes and foreign keys', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-ids-'));
    const storage = await connect({ dataDir });
    try {
      await migrate(storage.db, '005_term_groups');
      const db = storage.db;
      for (const id of [3, 7, 11]) await db.insertInto('posts').values({ id, type: 'image' }).execute();
      await db.insertInto('images').values({ id: 11, url: 'https://example.org/x.png', extension: 'png' }).execute();
      await db
        .insertInto('terms')
        .values([
          {
            id: 5,
            taxonomy: 'post_tag',
            lang: 'en',
            trid: 5,
            name: 'Five',
            slug: 'five',
            description: '',
            parent: 0,
            count: 0,
          },
          {
            id: 9,
            taxonomy: 'post_tag',
            lang: 'en',
            trid: 9,
            name: 'Nine',
            slug: 'nine',
            description: '',
            parent: 0,
            count: 0,
          },
        ])
        .execute();
      await db
        .insertInto('users')
        .values({ id: 4, username: 'u', email: '', role: 'editor', registered: '2024-01-01 00:00:00' })
        .execute();
      await db
        .insertInto('app_passwords')
        .values({ id: 8, user_id: 4, name: '', hash: 'h', created: '2024-01-01 00:00:00' })
        .execute();

      await migrate(db);

      assert.deepEqual(
        (await db.selectFrom('posts').select('id').orderBy('id').execute()).map((r) => r.id),
        [3, 7, 11],
      );
      assert.deepEqual(
        (await db.selectFrom('terms').select('id').orderBy('id').execute()).map((r) => r.id),
        [5, 9],
      );
      assert.equal(
        (await db.selectFrom('images').select('url').executeTakeFirstOrThrow()).url,
        'https://example.org/x.png',
      );
      // The unique slug index came back with the table.
      await assert.rejects(
        db
          .insertInto('terms')
          .values({
            taxonomy: 'post_tag',
            lang: 'en',
            trid: 1,
            name: 'Dup',
            slug: 'nine',
            description: '',
            parent: 0,
            count: 0,
          })
          .execute(),
      );
      // Foreign keys hold again: a password of a user who does not exist is refused, and cascades work.
      await assert.rejects(
        db.insertInto('app_passwords').values({ user_id: 999, name: '', hash: 'h', created: '' }).execute(),
      );

      for (const [table, highest] of [
        ['posts', 11],
        ['terms', 9],
        ['users', 4],
        ['app_passwords', 8],
      ] as const) {
        if (table === 'posts') await db.deleteFrom('images').where('id', '=', 11).execute();
        await db.deleteFrom(table).where('id', '=', highest).execute();
      }
      const post = await db.insertInto('posts').values({ type: 'event' }).returning('id').executeTakeFirstOrThrow();
      const term = await db
        .insertInto('terms')
        .values({
          taxonomy: 'post_tag',
          lang: 'en',
          trid: 1,
          name: 'New',
          slug: 'new',
          description: '',
          parent: 0,
          count: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const user = await db
        .insertInto('users')
        .values({ username: 'v', email: '', role: 'editor', registered: '' })
        .returning('id')
        .executeTakeFirstOrThrow();
      assert.deepEqual([post.id, term.id, user.id], [12, 10, 5]);
    } finally {
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
