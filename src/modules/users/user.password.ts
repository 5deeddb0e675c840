import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 characters from 62 (~143 bits), shown in groups of four as WordPress shows them. */
export function generateApplicationPassword(): string {
  const chars = Array.from({ length: 24 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return chars.join('').replace(/(.{4})(?!$)/g, '$1 ');
}

/** Clients paste application passwords with or without the spaces. */
export function normalizeApplicationPassword(password: string): string {
  return password.replace(/\s+/g, '');
}

export function hashPassword(password: string): Promise<string> {
  return scryptHash(normalizeApplicationPassword(password));
}

export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return scryptVerify(normalizeApplicationPassword(password), stored);
}

/**
 * Login passwords are chosen and typed by people: kept as typed (a space is part of a passphrase,
 * unlike the groups of an application password), in Unicode's composed form so that "é" typed on
 * one system matches "é" typed on another.
 */
export function hashLoginPassword(password: string): Promise<string> {
  return scryptHash(password.normalize('NFC'));
}

export function verifyLoginPassword(password: string, stored: string): Promise<boolean> {
  return scryptVerify(password.normalize('NFC'), stored);
}

async function scryptHash(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

async function scryptVerify(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

/** A hash nobody's password matches, verified for unknown users so they take as long as known ones. */
export const DUMMY_HASH = `scrypt$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
