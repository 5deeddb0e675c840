/** 'YYYY-MM-DD HH:MM:SS' in UTC, the stored form of every timestamp. */
export function nowUtc(at: Date = new Date()): string {
  return at.toISOString().slice(0, 19).replace('T', ' ');
}
