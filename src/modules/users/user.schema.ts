import { Type, type Static } from 'typebox';
import { ROLES } from '../../auth/roles.js';

/**
 * Schemas of the admin user routes. Response schemas name their keys explicitly: Fastify's
 * serializer drops every other key, so a password hash can never reach a client.
 */

export const RoleSchema = Type.Enum([...ROLES], {
  description: 'Role: administrator, editor, author, contributor or subscriber',
});

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    role: RoleSchema,
    registered: Type.String({ description: 'Registration date-time, UTC (Y-m-d H:i:s)' }),
    submission_mail: Type.String({ description: "Mails about public submissions: 'none', 'each' or 'digest' (daily)" }),
  },
  { description: 'User' },
);
export type User = Static<typeof UserSchema>;

export const UserListSchema = Type.Array(UserSchema, { description: 'Users, by id' });

const Email = Type.String({ maxLength: 254, description: 'Email address (may be empty)' });

/** A login password, for people signing in (application passwords stay for programs); never in an answer. */
const LoginPassword = Type.String({
  minLength: 8,
  maxLength: 1024,
  description: 'Login password (8 to 1024 characters); stored only as a hash, never answered',
});

export const UserCreateSchema = Type.Object({
  username: Type.String({ description: 'Login name: letters, digits and _ . @ - (at most 60)' }),
  role: RoleSchema,
  email: Type.Optional(Email),
  password: Type.Optional(LoginPassword),
});

/** Mails about public submissions a moderator (editor and up) asks for. */
const SubmissionMail = Type.Enum(['none', 'each', 'digest'], {
  description: "Mails about public submissions: 'none', 'each' (one per submission) or 'digest' (daily)",
});

export const UserUpdateSchema = Type.Object({
  role: Type.Optional(RoleSchema),
  email: Type.Optional(Email),
  submission_mail: Type.Optional(SubmissionMail),
  password: Type.Optional(LoginPassword),
});

/** What anyone signed in may change of their own account; a new password needs the current one. */
export const OwnAccountUpdateSchema = Type.Object({
  email: Type.Optional(Email),
  submission_mail: Type.Optional(SubmissionMail),
  password: Type.Optional(LoginPassword),
  current_password: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'The current login password (to set a new one)' }),
  ),
});

/** The one response that carries a plain application password: it is shown once, at creation. */
export const CreatedUserSchema = Type.Object(
  {
    id: Type.Integer(),
    username: Type.String(),
    role: RoleSchema,
    email: Type.String(),
    application_password: Type.String({ description: 'Shown this once; only its hash is stored' }),
  },
  { description: 'The new user and its first application password' },
);

export const DeletedUserSchema = Type.Object(
  { deleted: Type.Boolean(), previous: UserSchema },
  { description: 'The deleted user' },
);

export const DeleteUserQuery = Type.Object({
  reassign: Type.Optional(
    Type.Integer({ minimum: 1, description: "User who receives the deleted user's records (default: the caller)" }),
  ),
});

export const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'User id' }) });

export const PasswordParams = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'User id' }),
  passwordId: Type.Integer({ minimum: 1, description: 'Application password id' }),
});

export const PasswordCreateSchema = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 100, description: 'A label to recognise the password by' })),
});

export const NewPasswordSchema = Type.Object(
  { application_password: Type.String({ description: 'Shown this once; only its hash is stored' }) },
  { description: 'A new application password' },
);

export const PasswordInfoSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created: Type.String({ description: 'UTC (Y-m-d H:i:s)' }),
});

export const PasswordListSchema = Type.Array(PasswordInfoSchema, {
  description: 'Application passwords (never their hashes)',
});

export const DeletedSchema = Type.Object({ deleted: Type.Boolean() }, { description: 'Deleted' });
