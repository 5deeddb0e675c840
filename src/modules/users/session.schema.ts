import { Type } from 'typebox';
import { UserSchema } from './user.schema.js';

/**
 * Schemas of the session routes (sign-in for people, issue 27). Every string a client sends is
 * bounded before anything reads it; a login password is at most 1024 characters, so no scrypt
 * ever runs over more.
 */

export const SignInSchema = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 254, description: 'Login name' }),
  password: Type.String({ minLength: 1, maxLength: 1024, description: 'Login password (not an application password)' }),
});

export const SessionSchema = Type.Object(
  {
    user: UserSchema,
    nonce: Type.String({
      description: 'Send it back in X-Cal-Nonce with every request the cookie should authenticate',
    }),
  },
  { description: 'The signed-in user and the session nonce' },
);

export const SignOutQuery = Type.Object({
  everywhere: Type.Optional(Type.Boolean({ description: "End every session of the caller's, not only this one" })),
});

export const SessionsEndedSchema = Type.Object(
  { deleted: Type.Boolean(), sessions: Type.Integer({ description: 'How many sessions ended' }) },
  { description: 'Sessions ended' },
);

export const SessionInfoSchema = Type.Object({
  id: Type.Integer({ description: 'Session id (not its token)' }),
  created: Type.String({ description: 'Sign-in, UTC (Y-m-d H:i:s)' }),
  last_seen: Type.String({ description: 'Last use, UTC, to the minute at best' }),
  expires: Type.String({ description: 'Absolute end, UTC' }),
  ip: Type.String({ description: 'Address it was opened from' }),
  user_agent: Type.String({ description: 'Browser it was opened with (first 256 characters)' }),
});

export const SessionListSchema = Type.Array(SessionInfoSchema, { description: "A user's open sessions, oldest first" });
