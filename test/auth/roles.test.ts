import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  can,
  canEdit,
  canRead,
  defaultListStatuses,
  isRole,
  POST_STATUSES,
  ROLES,
  scaleBackStatus,
  type Actor,
  type Capability,
  type Role,
} from '../../src/auth/roles.js';

const actor = (role: Role, id = 10): Actor => ({ id, username: role, role });
const OWN = 10;
const OTHER = 99;

/** The contract's role table and the original's finer rules (original-behavior.md section 6), written out. */
const EXPECTED: Record<Role, Capability[]> = {
  subscriber: [],
  contributor: ['edit_posts'],
  author: ['edit_posts', 'publish_posts', 'manage_categories'],
  editor: ['edit_posts', 'publish_posts', 'edit_others_posts', 'manage_categories', 'manage_tags'],
  administrator: [
    'edit_posts',
    'publish_posts',
    'edit_others_posts',
    'manage_categories',
    'manage_tags',
    'manage_options',
  ],
};
const CAPABILITIES: Capability[] = [
  'edit_posts',
  'publish_posts',
  'edit_others_posts',
  'manage_categories',
  'manage_tags',
  'manage_options',
];

describe('roles: can', () => {
  for (const role of ROLES) {
    it(`should give ${role} exactly its capabilities`, () => {
      for (const capability of CAPABILITIES)
        assert.equal(can(actor(role), capability), EXPECTED[role].includes(capability), `${role} ${capability}`);
    });
  }

  it('should give anonymous callers nothing', () => {
    for (const capability of CAPABILITIES) assert.equal(can(null, capability), false);
  });

  it('should know the five role names and nothing else', () => {
    assert.deepEqual([...ROLES], ['administrator', 'editor', 'author', 'contributor', 'subscriber']);
    assert.equal(isRole('editor'), true);
    assert.equal(isRole('Editor'), false);
    assert.equal(isRole('super_admin'), false);
    assert.equal(isRole(undefined), false);
  });
});

describe('roles: canRead', () => {
  it('should let everyone read published records', () => {
    for (const who of [null, ...ROLES.map((r) => actor(r))])
      assert.equal(canRead(who, { author: OTHER, status: 'publish' }), true);
  });

  for (const status of POST_STATUSES.filter((s) => s !== 'publish')) {
    it(`should show a ${status} record to its author (contributor up) and to editors`, () => {
      const record = (author: number) => ({ author, status });
      assert.equal(canRead(null, record(OTHER)), false);
      assert.equal(canRead(actor('subscriber'), record(OWN)), false, 'subscribers have no records of their own');
      for (const role of ['contributor', 'author'] as const) {
        assert.equal(canRead(actor(role), record(OWN)), true, `${role} own`);
        assert.equal(canRead(actor(role), record(OTHER)), false, `${role} other`);
      }
      for (const role of ['editor', 'administrator'] as const)
        assert.equal(canRead(actor(role), record(OTHER)), true, role);
    });
  }
});

describe('roles: canEdit', () => {
  const cases: { role: Role | null; own: boolean; status: string; expected: boolean }[] = [];
  for (const status of POST_STATUSES) {
    const published = ['publish', 'future', 'private'].includes(status);
    for (const own of [true, false]) {
      cases.push({ role: null, own, status, expected: false });
      cases.push({ role: 'subscriber', own, status, expected: false });
      cases.push({ role: 'contributor', own, status, expected: own && !published });
      cases.push({ role: 'author', own, status, expected: own });
      cases.push({ role: 'editor', own, status, expected: true });
      cases.push({ role: 'administrator', own, status, expected: true });
    }
  }

  for (const role of [null, ...ROLES]) {
    it(`should apply the ownership rules for ${role ?? 'anonymous'}`, () => {
      for (const c of cases.filter((x) => x.role === role)) {
        const record = { author: c.own ? OWN : OTHER, status: c.status };
        assert.equal(
          canEdit(role === null ? null : actor(role), record),
          c.expected,
          `${c.own ? 'own' : 'other'} ${c.status}`,
        );
      }
    });
  }
});

describe('roles: scaleBackStatus', () => {
  for (const role of ['author', 'editor', 'administrator'] as const) {
    it(`should keep the status ${role} asks for, default publish`, () => {
      assert.equal(scaleBackStatus(actor(role), undefined), 'publish');
      for (const status of POST_STATUSES) assert.equal(scaleBackStatus(actor(role), status), status);
    });
  }

  for (const who of [null, 'subscriber', 'contributor'] as const) {
    it(`should scale back ${who ?? 'anonymous'}: publish and future become pending, default draft`, () => {
      const a = who === null ? null : actor(who);
      assert.equal(scaleBackStatus(a, undefined), 'draft');
      assert.equal(scaleBackStatus(a, 'publish'), 'pending');
      assert.equal(scaleBackStatus(a, 'future'), 'pending');
      for (const status of ['draft', 'pending', 'private']) assert.equal(scaleBackStatus(a, status), status);
    });
  }
});

describe('roles: defaultListStatuses', () => {
  it('should list unpublished statuses only for those who may write', () => {
    assert.deepEqual(defaultListStatuses(null), ['publish']);
    assert.deepEqual(defaultListStatuses(actor('subscriber')), ['publish']);
    for (const role of ['contributor', 'author', 'editor', 'administrator'] as const) {
      assert.deepEqual(defaultListStatuses(actor(role)), ['publish', 'future', 'draft', 'pending', 'private']);
    }
  });
});
